// V8's code cache for the bundled command on Node < 22.1 (which has no module.enableCompileCache):
// the bundle's CommonJS files are compiled with vm.Script and the cachedData V8 produces after a
// run is kept, so the next run skips parsing and compiling them. The cache lives in the user's own
// cache folder (~/.cache/verdict of the account, never from $HOME or $XDG_CACHE_HOME; created 0700, one subfolder per Node version), keyed by each file's name, size,
// modification time and a sampled hash of its text; V8 itself refuses data that does not match. Any failure (no folder, unwritable, rejected data)
// falls back to Node's ordinary compile: the cache can only make a run faster, never change it.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const vm = require('node:vm');

/**
 * The cache key of a file: its name (rolldown puts a hash of a chunk's content in it), size and
 * modification time, and two 32-bit FNV-1a hashes of every 16th character. A key, not a defence
 * (whoever can change the bundle can change what it runs); hashing all 450 kB of a chunk in
 * JavaScript, or loading node:crypto, would cost a good part of what the cache saves.
 */
function cacheKey(filename, content) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ content.length;
  for (let i = 0; i < content.length; i += 16) {
    const c = content.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  let mtime = 0;
  try {
    mtime = Math.round(fs.statSync(filename).mtimeMs);
  } catch {
    // keyed by content alone
  }
  const hex = (n) => (n >>> 0).toString(16).padStart(8, '0');
  return `${path.basename(filename, '.cjs')}-${content.length}-${mtime.toString(36)}-${hex(a)}${hex(b)}`;
}

/**
 * The user's own cache folder, from the account (`os.userInfo()`), never from `$HOME` or
 * `$XDG_CACHE_HOME`: an agent can set those for the hook (Gemini CLI loads a project's `.env` into
 * its environment), and a cache folder inside the project would let a file the agent wrote be run
 * as Verdict's code. The folder is used only when it is this user's and writable by nobody else
 * (the built-in `verdict` protection covers `~/.cache/verdict/` against the agent's own writes).
 */
function cacheFolder() {
  if (process.env.VERDICT_NO_CODE_CACHE) return undefined;
  let home;
  let uid;
  try {
    const me = os.userInfo();
    home = me.homedir;
    uid = me.uid;
  } catch {
    return undefined;
  }
  if (!home) return undefined;
  const dir = path.join(home, '.cache', 'verdict', `v8-${process.version}-${process.arch}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (uid >= 0 && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the newest files of the folder (older builds leave theirs behind). A file is written only
 * when it is missing, so the newest are not the most used: the bound must hold every file the
 * commands of a build or two load, or they evict each other and every run compiles again (a Bash
 * hook call alone loads 36 files, `verdict serve` as many). 256 files of this bundle are ~10 MB.
 */
function prune(dir, keep = 256) {
  try {
    const files = fs
      .readdirSync(dir)
      .map((name) => ({ name, mtime: fs.statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { name } of files.slice(keep)) fs.rmSync(path.join(dir, name), { force: true });
  } catch {
    // another run pruned it first, or the folder is gone
  }
}

exports.install = function install(distUrl) {
  const dist = fileURLToPath(distUrl);
  const dir = cacheFolder();
  if (!dir) return;
  const compile = Module.prototype._compile;
  const pending = [];
  Module.prototype._compile = function compileWithCache(content, filename) {
    if (!filename.startsWith(dist) || !filename.endsWith('.cjs')) return compile.call(this, content, filename);
    let script;
    let file;
    let cached;
    try {
      file = path.join(dir, `${cacheKey(filename, content)}.bin`);
      try {
        cached = fs.readFileSync(file);
      } catch {
        cached = undefined;
      }
      script = new vm.Script(Module.wrap(content), { filename, cachedData: cached });
    } catch {
      return compile.call(this, content, filename);
    }
    if (cached === undefined || script.cachedDataRejected) pending.push({ script, file });
    const fn = script.runInThisContext({ displayErrors: true });
    const mod = this;
    const req = (id) => mod.require(id);
    req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    req.main = process.mainModule;
    req.cache = Module._cache;
    return fn.call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename));
  };
  // After the run, the functions it compiled lazily are in the cache too.
  process.once('exit', () => {
    if (pending.length === 0) return;
    for (const { script, file } of pending) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, file);
      } catch {
        // no cache this time
      }
    }
    prune(dir);
  });
};
