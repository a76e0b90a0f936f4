/**
 * Stage `load`: bytes to text. Refuses oversized files before reading them, rejects invalid UTF-8
 * and NUL bytes with their line and column, strips a BOM, and picks the syntax.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { extname } from 'node:path';
import type { Diagnostic } from '@verdict/engine';
import { LineIndex, spanOf } from './positions.ts';
import type { CompileState, Syntax } from './types.ts';
import { checkJsonSyntax } from './json-syntax.ts';
import type { POLICY_EXTENSIONS } from './files/policy-files.ts';

export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;

/**
 * Most lines and commas a YAML or JSON policy may hold. The yaml parser spends about 10 µs per value
 * (minutes for the millions of values 10 MiB can hold, and several for millions of blank lines);
 * every value but a few nested on one line starts after a line break or a comma, so counting those
 * bounds the parser's work. A policy file never comes near it.
 */
export const MAX_SOURCE_VALUES = 100_000;

export interface LoadedText {
  text?: string;
  diagnostics: Diagnostic[];
}

function fileDiagnostic(file: string, code: string, message: string, help?: string): Diagnostic {
  const d: Diagnostic = {
    code,
    severity: 'error',
    message,
    span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
  };
  if (help !== undefined) d.help = help;
  return d;
}

/**
 * What a path that is not a regular file is, for the message: reading a FIFO blocks until a writer
 * comes (forever, as a rule) and a device such as `/dev/zero` never ends.
 */
function specialKind(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notAFile(file: string, kind: string): Diagnostic {
  return fileDiagnostic(
    file,
    'load/not-a-file',
    `\`${file}\` is ${kind}, not a regular file`,
    'policy files are read whole: pipes and devices are refused because reading them may block or never end; save the policy to a file',
  );
}

/** Opening for reading without blocking: a FIFO with no writer would otherwise hold `open` forever. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The one reader of policy, descriptor, case and configuration files, for every command: regular
 * files only (FIFOs, devices and sockets are refused before a byte is read), the size checked
 * before reading and again while reading, strict UTF-8 with the first invalid byte located, a BOM
 * stripped, NUL refused. `file` is the name diagnostics show; `path` is what is opened (a `Buffer`
 * for a name that is not valid UTF-8). Never throws.
 */
export function readSourceFile(file: string, path: string | Uint8Array = file): LoadedText {
  let fd: number | undefined;
  try {
    try {
      // A `Uint8Array` path is the name's bytes (Node opens those as they are); the signature names no Node type.
      fd = openSync(typeof path === 'string' ? path : Buffer.from(path.buffer, path.byteOffset, path.byteLength), OPEN_FLAGS);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        const d = fileDiagnostic(file, 'load/not-found', `file \`${file}\` does not exist`);
        // Node decodes command-line arguments as UTF-8: a byte that is not turns into U+FFFD.
        if (typeof path === 'string' && path.includes('\ufffd')) {
          d.help =
            'the name holds `\ufffd`, which is how a byte that is not UTF-8 reads on the command line: such a file cannot be named in an argument, but it is found when its folder is given';
        }
        return { diagnostics: [d] };
      }
      if (code === 'EISDIR') return { diagnostics: [fileDiagnostic(file, 'load/not-a-file', `\`${file}\` is a directory, not a file`)] };
      if (code === 'ENXIO') return { diagnostics: [notAFile(file, 'a socket')] };
      return {
        diagnostics: [fileDiagnostic(file, 'load/unreadable', `cannot read \`${file}\`: ${errorText(e)}`)],
      };
    }
    const st = fstatSync(fd);
    if (st.isDirectory()) {
      return { diagnostics: [fileDiagnostic(file, 'load/not-a-file', `\`${file}\` is a directory, not a file`)] };
    }
    const kind = specialKind(st);
    if (kind !== undefined) return { diagnostics: [notAFile(file, kind)] };
    if (st.size > MAX_SOURCE_BYTES) {
      return { diagnostics: [tooLarge(file, st.size)] };
    }
    // Read at most one byte past the limit: the size may change, or lie (special files).
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_SOURCE_BYTES) return { diagnostics: [tooLarge(file, total)] };
    }
    return decodeSource(file, Buffer.concat(chunks, total));
  } catch (e) {
    return { diagnostics: [fileDiagnostic(file, 'load/unreadable', `cannot read \`${file}\`: ${errorText(e)}`)] };
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // nothing to do: the descriptor is gone either way
      }
    }
  }
}

/** `permission denied`, not `EACCES: permission denied, open '/abs/path'` (the path is already said). */
function errorText(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/^[A-Z][A-Z0-9_]*: /, '').replace(/, \w+ '.*'$/s, '');
}

function tooLarge(file: string, size: number): Diagnostic {
  const mib = (size / (1024 * 1024)).toFixed(1);
  return fileDiagnostic(
    file,
    'load/too-large',
    `file is ${size > MAX_SOURCE_BYTES + 1 ? mib + ' MiB' : 'larger than 10 MiB'}, over the 10 MiB limit`,
    'policy files are small; split the file or check that this is the right path',
  );
}

/**
 * Standard input (or any stream of bytes), read as `readSourceFile` reads a file: at most
 * `MAX_SOURCE_BYTES` (reading stops one chunk past it; the rest is never buffered), strict UTF-8
 * with the first invalid byte located. `text` is the decoded source with its BOM and NUL bytes
 * still in it, as `compileSource` takes it (its load stage strips the BOM and refuses NUL, as for a
 * file). Never throws: a stream that fails is a `load/unreadable` diagnostic.
 */
export async function readSourceStream(file: string, stream: AsyncIterable<unknown>): Promise<LoadedText> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      chunks.push(buf);
      total += buf.length;
      // Leaving the loop ends the stream: nothing past the limit is kept.
      // The size is not known past that point: the message says only that it is over.
      if (total > MAX_SOURCE_BYTES) return { diagnostics: [tooLarge(file, MAX_SOURCE_BYTES + 1)] };
    }
  } catch (e) {
    return { diagnostics: [fileDiagnostic(file, 'load/unreadable', `cannot read \`${file}\`: ${errorText(e)}`)] };
  }
  return decodeUtf8(file, Buffer.concat(chunks, total));
}

/** Bytes to text: fatal UTF-8 decoding, with the first bad byte located; BOM stripped; NUL refused. */
export function decodeSource(file: string, bytes: Uint8Array): LoadedText {
  const decoded = decodeUtf8(file, bytes);
  return decoded.text === undefined ? decoded : checkText(file, decoded.text);
}

/** Bytes to text with the BOM kept: fatal UTF-8 decoding, with the first bad byte located. */
function decodeUtf8(file: string, bytes: Uint8Array): LoadedText {
  let text: string;
  try {
    // The BOM is kept here and stripped by `checkText`, once, as for text handed over in memory.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    if (utf16) {
      return {
        diagnostics: [
          {
            ...fileDiagnostic(file, 'load/invalid-utf8', 'file is UTF-16 (it starts with a UTF-16 byte order mark), not UTF-8', 'save the file as UTF-8'),
            span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 1, line: 1, column: 2 } },
          },
        ],
      };
    }
    const bad = firstInvalidUtf8(bytes);
    const prefix = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes.subarray(0, bad));
    const index = new LineIndex(prefix);
    const at = prefix.length;
    const span = spanOf(file, index, at, at);
    span.end = { ...span.end, column: span.end.column + 1, offset: at + 1 };
    const byte = bytes[bad] ?? 0;
    return {
      diagnostics: [
        {
          code: 'load/invalid-utf8',
          severity: 'error',
          message: `file is not valid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${bad}`,
          help: 'save the file as UTF-8',
          span,
        },
      ],
    };
  }
  return { text, diagnostics: [] };
}

/** Text-level checks shared by files and in-memory sources. */
export function checkText(file: string, input: string): LoadedText {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const index = new LineIndex(text);
    return {
      diagnostics: [
        {
          code: 'load/nul-byte',
          severity: 'error',
          message: 'file contains a NUL byte',
          help: 'this looks like a binary file; policy files are UTF-8 text',
          span: spanOf(file, index, nul, nul + 1),
        },
      ],
    };
  }
  return { text, diagnostics: [] };
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (as TextDecoder's fatal mode sees it). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  const n = b.length;
  const cont = (k: number): boolean => k < n && ((b[k] ?? 0) & 0xc0) === 0x80;
  while (i < n) {
    const c = b[i] ?? 0;
    if (c < 0x80) {
      i++;
    } else if (c >= 0xc2 && c <= 0xdf) {
      if (!cont(i + 1)) return i;
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      const c1 = b[i + 1] ?? 0;
      if (!cont(i + 1) || (c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || !cont(i + 2)) return i;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      const c1 = b[i + 1] ?? 0;
      if (!cont(i + 1) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f) || !cont(i + 2) || !cont(i + 3)) {
        return i;
      }
      i += 4;
    } else {
      return i;
    }
  }
  return n;
}

/** The syntax each policy-file extension means. */
const SYNTAX_OF_EXTENSION: Readonly<Record<(typeof POLICY_EXTENSIONS)[number], Syntax>> = {
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.verdict': 'verdict',
};

/** The syntax of a file by extension, then by content. */
export function detectSyntax(file: string, text: string): Syntax {
  const ext = extname(file).toLowerCase();
  if (Object.hasOwn(SYNTAX_OF_EXTENSION, ext)) return SYNTAX_OF_EXTENSION[ext as (typeof POLICY_EXTENSIONS)[number]];
  const first = /\S/.exec(text)?.[0];
  if ((first === '{' || first === '[') && checkJsonSyntax(text) === undefined) return 'json';
  return 'yaml';
}

/** Offset of the line break or comma that takes `text` over `MAX_SOURCE_VALUES`, or -1. */
function overValueBudget(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x2c || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      if (++count > MAX_SOURCE_VALUES) return i;
    }
  }
  return -1;
}

/** The `load/too-large` finding of a YAML or JSON text over `MAX_SOURCE_VALUES`, located; else nothing. */
export function checkValueBudget(file: string, text: string, index: LineIndex): Diagnostic | undefined {
  const at = overValueBudget(text);
  if (at < 0) return undefined;
  return {
    code: 'load/too-large',
    severity: 'error',
    message: `file has more than ${MAX_SOURCE_VALUES} lines and commas, over the limit for a policy file`,
    help: 'policy files are small; split the file or check that this is the right path',
    span: spanOf(file, index, at, at + 1),
  };
}

export function runLoad(state: CompileState): void {
  let loaded: LoadedText;
  if (state.sourceText !== undefined) {
    const bytes = Buffer.byteLength(state.sourceText, 'utf8');
    loaded =
      bytes > MAX_SOURCE_BYTES
        ? { diagnostics: [tooLarge(state.file, bytes)] }
        : checkText(state.file, state.sourceText);
  } else {
    loaded = readSourceFile(state.file, state.path ?? state.file);
  }
  for (const d of loaded.diagnostics) state.diagnostics.push(d);
  if (loaded.text === undefined) return;
  const index = new LineIndex(loaded.text);
  const syntax = state.options.syntax ?? detectSyntax(state.file, loaded.text);
  const over = syntax === 'verdict' ? undefined : checkValueBudget(state.file, loaded.text, index);
  if (over) {
    state.diagnostics.push(over);
    return;
  }
  state.text = loaded.text;
  state.index = index;
  state.syntax = syntax;
}

/**
 * A file name read as bytes (a folder listing), as text: UTF-8 where it is valid, each byte that is
 * not as `\xNN`. Node would turn such a byte into U+FFFD, a name that names no file.
 */
export function nameFromBytes(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const rest = bytes.subarray(i);
    const bad = firstInvalidUtf8(rest);
    out += Buffer.from(rest.subarray(0, bad)).toString('utf8');
    if (bad >= rest.length) break;
    out += `\\x${(rest[bad] ?? 0).toString(16).padStart(2, '0')}`;
    i += bad + 1;
  }
  return out;
}
