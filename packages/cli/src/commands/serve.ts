import { chmodSync, lstatSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { type Command, parse, UsageError, write } from '../args.ts';

const USAGE = `usage: verdict serve --policy FILE [--listen unix:PATH|HOST:PORT] [options]

Serves decisions over HTTP from one long-lived process (no start-up per call):
  POST /v1/decide          a request as \`verdict eval\` reads a line, answered with the line it writes;
                           with Content-Type: application/x-ndjson, one answer line per request line
  POST /v1/hooks/AGENT     a hook payload of claude, codex, gemini or cursor, decided as \`verdict hook\`
                           decides it; the body is the agent's HTTP hook answer (status 200), or with
                           ?form=command the answer as a process gives it ({exitCode, stdout, stderr})
  GET  /healthz            the serving policy and the last reload, as JSON
  GET  /metrics            decisions, latency, reloads and errors in Prometheus text format
Every answer names the policy version (a hash of the file) in the header Verdict-Policy-Version.
The policy is reloaded when its file changes and on SIGHUP: read twice, 250 ms or more apart, and
swapped in whole only when both reads agree, it compiles and its own inline tests pass; otherwise the
old one keeps serving (and a file still changing is read again once it settles). Write a new policy
elsewhere and rename it over the file: a file written in place in pieces further apart than that
cannot be told from a finished one. SIGTERM or SIGINT stops accepting, answers
what was accepted, and exits 0. Whatever cannot be decided (a body too large, too many requests at
once, the deadline) is answered with the endpoint's deny.

options:
  --policy FILE         the policy file (YAML, JSON or .verdict)
  --listen ADDR         unix:PATH (a socket only its owner can use) or HOST:PORT
                        (default 127.0.0.1:8787; port 0 picks a free port)
  --insecure-listen     allow a HOST that is not loopback (needs a bearer token)
  --token-file FILE     require \`Authorization: Bearer TOKEN\` with the token in FILE
                        (or in the environment variable VERDICT_SERVE_TOKEN)
  --max-body SIZE       longest request body (default 8MiB; B, KiB or MiB)
  --max-inflight N      requests in progress at once, at most; more are answered 503 (default 512)
  --deadline D          longest time from a request's arrival to its answer (a Go duration: 2s,
                        500ms; default 2s)
  --no-watch            reload on SIGHUP only, not when the file changes
  --log FILE            append one JSON line per decision (an audit log, written off the request
                        path; inputs are left out, their length is logged)
  --log-inputs          also log each request's input (it may hold secrets)
  --log-max-size SIZE   start a new log file past SIZE, keeping FILE.1 … (default 64MiB)
  --log-keep N          rotated files kept (default 3)
  -h, --help            show this help

exit: 0 after a graceful stop, 2 when the policy does not load or the address cannot be used`;

/** `8MiB`, `64KiB`, `1024` (bytes). */
function parseSize(flag: string, text: string): number {
  const m = /^(\d+)(B|KiB|MiB|GiB)?$/.exec(text);
  const n = m ? Number(m[1]) * ({ B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[m[2] ?? 'B'] ?? 1) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`\`--${flag} ${text}\` is not a size`, 'write a positive number of bytes, KiB or MiB, as in `8MiB`');
  return n;
}

function parseCount(flag: string, text: string, min: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`\`--${flag} ${text}\` is not a whole number of at least ${min}`);
  return n;
}

/** Whether something answers on the unix socket `path` (a live server), or it is a leftover file. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve decisions and agent hooks over HTTP (unix socket or loopback), with hot reload',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      policy: { type: 'string', short: 'p' },
      listen: { type: 'string' },
      'insecure-listen': { type: 'boolean' },
      'token-file': { type: 'string' },
      'max-body': { type: 'string' },
      'max-inflight': { type: 'string' },
      deadline: { type: 'string' },
      'no-watch': { type: 'boolean' },
      log: { type: 'string' },
      'log-inputs': { type: 'boolean' },
      'log-max-size': { type: 'string' },
      'log-keep': { type: 'string' },
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (!values.policy) throw new UsageError('missing `--policy FILE`');
    if (positionals.length > 0) throw new UsageError(`unexpected argument \`${positionals[0]}\``);
    const { parseAddress, isLocal, showAddress } = await import('../serve/address.ts');
    const address = parseAddress(values.listen ?? '127.0.0.1:8787');
    if ('message' in address) throw new UsageError(address.message, address.help);
    const maxBodyBytes = values['max-body'] === undefined ? 8 * 1024 * 1024 : parseSize('max-body', values['max-body']);
    const maxInflight = values['max-inflight'] === undefined ? 512 : parseCount('max-inflight', values['max-inflight'], 1);
    const logMax = values['log-max-size'] === undefined ? 64 * 1024 * 1024 : parseSize('log-max-size', values['log-max-size']);
    const logKeep = values['log-keep'] === undefined ? 3 : parseCount('log-keep', values['log-keep'], 0);
    let deadlineMs = 2000;
    if (values.deadline !== undefined) {
      const { parseGoDuration } = await import('@verdict/engine');
      const d = parseGoDuration(values.deadline);
      if (!d.ok || d.ns <= 0n) throw new UsageError(`\`--deadline ${values.deadline}\` is not a positive duration`, 'write a Go duration such as `500ms` or `2s`');
      deadlineMs = Math.max(1, Number(d.ns / 1_000_000n));
    }
    let token: string | undefined;
    if (values['token-file'] !== undefined) {
      try {
        token = readFileSync(values['token-file'], 'utf8').trim();
      } catch (err) {
        io.stderr.write(`verdict serve: cannot read the token file \`${values['token-file']}\`: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
        return 2;
      }
      if (token === '') throw new UsageError(`the token file \`${values['token-file']}\` is empty`);
    } else if (process.env['VERDICT_SERVE_TOKEN']) token = process.env['VERDICT_SERVE_TOKEN'];
    if (!isLocal(address)) {
      if (!values['insecure-listen']) {
        throw new UsageError(`\`${showAddress(address)}\` is not a loopback address: anyone who can reach it could ask for decisions`, 'listen on `unix:PATH` or `127.0.0.1:PORT`, or pass `--insecure-listen` with `--token-file FILE`');
      }
      if (token === undefined) throw new UsageError(`\`--insecure-listen\` needs a bearer token`, 'pass `--token-file FILE` (or set VERDICT_SERVE_TOKEN)');
    }

    const { loadPolicy, PolicyHolder } = await import('../serve/policy.ts');
    const { Metrics } = await import('../serve/metrics.ts');
    const { AuditLog } = await import('../serve/audit.ts');
    const { createDecisionServer } = await import('../serve/server.ts');
    const first = loadPolicy(values.policy);
    if (!first.ok) {
      io.stderr.write(`${first.error}\n`);
      return 2;
    }
    const log = (line: string): void => {
      try {
        io.stderr.write(`verdict serve: ${line}\n`);
      } catch {
        // stderr gone: the metrics and /healthz still tell
      }
    };
    const metrics = new Metrics();
    let audit: InstanceType<typeof AuditLog> | undefined;
    if (values.log !== undefined) {
      try {
        audit = new AuditLog({
          file: values.log,
          maxBytes: logMax,
          keep: logKeep,
          onDrop: (n) => (metrics.auditDropped += n),
          onError: () => metrics.auditWriteErrors++,
        });
      } catch (err) {
        io.stderr.write(`verdict serve: cannot open the log \`${values.log}\`: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
        return 2;
      }
    }
    const holder = new PolicyHolder(values.policy, first.policy, {
      onReload: (s) => {
        metrics.reload(s.ok);
        if (s.ok) log(s.unchanged ? `reloaded \`${values.policy}\`: unchanged, ${s.version}` : `reloaded \`${values.policy}\`: now serving ${s.version}`);
        else log(`reload of \`${values.policy}\` failed; still serving ${holder.current.version}:\n${s.error ?? ''}`);
      },
    });
    const served = createDecisionServer({
      policy: holder,
      metrics,
      maxBodyBytes,
      maxInflight,
      deadlineMs,
      ...(token !== undefined ? { token } : {}),
      ...(audit ? { audit } : {}),
      logInputs: values['log-inputs'] === true,
      log,
    });

    if (address.kind === 'unix') {
      let exists = false;
      try {
        exists = lstatSync(address.path).isSocket();
      } catch {
        exists = false;
      }
      if (exists) {
        if (await socketAnswers(address.path)) {
          io.stderr.write(`verdict serve: cannot listen on \`${showAddress(address)}\`: another server answers on it\n`);
          return 2;
        }
        rmSync(address.path, { force: true }); // left by a server that was killed
      }
    }
    const listening = await new Promise<string | undefined>((resolve) => {
      served.server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? 'the address is in use' : err.code === 'EACCES' ? 'permission denied' : err.message));
      if (address.kind === 'unix') served.server.listen(address.path, () => resolve(undefined));
      else served.server.listen(address.port, address.host, () => resolve(undefined));
    });
    if (listening !== undefined) {
      io.stderr.write(`verdict serve: cannot listen on \`${showAddress(address)}\`: ${listening}\n`);
      audit?.close();
      return 2;
    }
    if (address.kind === 'unix') {
      try {
        chmodSync(address.path, 0o600);
      } catch {
        // the folder's permissions still hold
      }
    }
    const bound = served.server.address();
    const shown = address.kind === 'tcp' && bound && typeof bound === 'object' ? showAddress({ kind: 'tcp', host: address.host, port: bound.port }) : showAddress(address);
    if (values['no-watch'] !== true) holder.watchFile();
    log(`listening on ${shown}, serving \`${values.policy}\` ${holder.current.version} (pid ${process.pid})`);

    return new Promise<number>((resolve) => {
      const onHup = (): void => void holder.reload();
      let stopping = false;
      const onStop = (signal: string): void => {
        if (stopping) return;
        stopping = true;
        log(`${signal}: answering ${served.inflight} accepted request(s), then stopping`);
        void served.shutdown().then(async () => {
          holder.close();
          process.off('SIGHUP', onHup);
          process.off('SIGTERM', onTerm);
          process.off('SIGINT', onInt);
          if (audit) {
            await audit.drain();
            audit.close();
          }
          log('stopped');
          resolve(0);
        });
      };
      const onTerm = (): void => onStop('SIGTERM');
      const onInt = (): void => onStop('SIGINT');
      process.on('SIGHUP', onHup);
      process.on('SIGTERM', onTerm);
      process.on('SIGINT', onInt);
    });
  },
};
