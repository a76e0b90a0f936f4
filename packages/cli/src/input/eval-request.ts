/**
 * A request line of `verdict eval`, read as the reference reads it: Go's `encoding/json` decoding the
 * line into a struct with the fields `toolName`, `input` and `sessionId`. The text is Go's: invalid
 * UTF-8 is U+FFFD byte by byte ({@link decodeUtf8AsGo}), a lone surrogate escape in a string is
 * U+FFFD, nesting stops at 10000 levels. A key names a field when it equals the field's name, or
 * equals it under Go's field-name folding (`foldName` in `encoding/json/fold.go`: each rune to the
 * smallest of its `unicode.SimpleFold` orbit, the relation of `bytes.EqualFold`), which is the
 * engine's `caseFold`: `TOOLNAME` and `ſessionId` (U+017F) name fields, `İnput` and `ınput` do not
 * (those two fold only under Turkic rules).
 *
 * Where the reference would hide something from the approver, or leaves a choice, Verdict decides:
 * - a key written twice in the envelope, exactly or under that folding, makes the line a bad line
 *   (Go keeps the last value of a field, and drops a key for no field unseen);
 * - an `input` that is not a string is passed on as the exact text of the line that holds it (white
 *   space, number literals and repeated keys included, as Go's `json.RawMessage` holds it), which is
 *   what a string input holding the same text gives: raw mode matches that text, canonical mode
 *   refuses what it refuses;
 * - a missing or non-string `toolName` is a bad line (Go would decide a `null` one as the tool `""`);
 *   a `sessionId` that is not a string is ignored.
 */
import { type ApprovalRequest, caseFold, MAX_JSON_DEPTH, scanObjectMembers, wellFormed } from '@verdict/engine';
import { decodeUtf8AsGo } from './eval-input.ts';

const TOOL_NAME = 'TOOLNAME'; // caseFold('toolName')
const INPUT = 'INPUT';
const SESSION_ID = 'SESSIONID';

/** Keys longer than this many characters are shortened in a reason. */
const MAX_KEY_IN_REASON = 64;

function shown(key: string): string {
  if (key.length <= MAX_KEY_IN_REASON) return key;
  const chars = Array.from(key);
  return chars.length > MAX_KEY_IN_REASON ? `${chars.slice(0, MAX_KEY_IN_REASON).join('')}…` : key;
}

/** Members up to this many are checked for repeats pairwise; more go through a map. */
const PAIRWISE_MEMBERS = 8;

/**
 * The request a line of bytes (without its newline) holds, or why it is no request (a reason for the
 * deny, without the `verdict: ` prefix): the one function from what a caller writes to what the
 * approver is asked, for harnesses that compare it with the reference. `verdict eval` gives each
 * line of its input this answer (after dropping a byte order mark at the very start of the stream,
 * and skipping lines of JSON white space).
 */
export function readRequestLine(bytes: Uint8Array): ApprovalRequest | string {
  return exactly(requestOfDecodedLine(decodeUtf8AsGo(bytes)));
}

/**
 * {@link readRequestLine} for a line already decoded to text: a lone surrogate in `line` itself
 * reads as U+FFFD, as the invalid byte it stands for does.
 */
export function parseRequestLine(line: string): ApprovalRequest | string {
  return exactly(requestOfDecodedLine(wellFormed(line)));
}

/** The request with each lone surrogate (from an escape) read as U+FFFD, as Go decodes it. */
function exactly(r: ApprovalRequest | string): ApprovalRequest | string {
  if (typeof r === 'string') return r;
  const toolName = wellFormed(r.toolName);
  const input = wellFormed(r.input);
  return r.sessionId === undefined ? { toolName, input } : { toolName, input, sessionId: wellFormed(r.sessionId) };
}

/**
 * {@link parseRequestLine} for text decoded from bytes (so with no lone surrogate of its own), as
 * `verdict eval` reads its lines, except that a lone surrogate escape in a string may be left a lone
 * surrogate instead of U+FFFD: the approver reads a lone surrogate as U+FFFD wherever it looks (it
 * makes its subject well-formed first, and folds tool names so), so the decision is the same, and a
 * line does not pay for a second pass over its input.
 */
export function requestOfDecodedLine(line: string): ApprovalRequest | string {
  return writtenAsStringified(line) ?? scanRequestLine(line);
}

const HEAD = '{"toolName":"';
const INPUT_KEY = '","input":"';
const SESSION_KEY = '","sessionId":"';

/** Where a tool name or session id written plainly (no escape, no control character, no surrogate) ends, or -1. */
function plainEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22) return i;
    if (c < 0x20 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return -1;
  }
  return -1;
}

/**
 * The request of a line written as `JSON.stringify({toolName, input, sessionId})` writes it (keys in
 * that order, no white space but after the object, a string input, a plain tool name and session
 * id), or `undefined` for {@link scanRequestLine} to read. The shape is checked from both ends, so
 * only the input's text is read in between, by `JSON.parse` (a whole line parsed that way costs no
 * more: the input is nearly all of it). That text must parse as one string: if it held
 * `","toolName":"…` the line would have more members than the shape, and `JSON.parse` refuses it.
 * `JSON.parse` reads a string literal by the grammar Go reads it by, and keeps a lone surrogate
 * escape as a lone surrogate where Go reads U+FFFD (see {@link requestOfDecodedLine}); a pair of
 * escapes is one character to both.
 */
function writtenAsStringified(line: string): ApprovalRequest | undefined {
  if (!line.startsWith(HEAD)) return undefined;
  const toolEnd = plainEnd(line, HEAD.length);
  if (toolEnd < 0 || !line.startsWith(INPUT_KEY, toolEnd)) return undefined;
  const inputStart = toolEnd + INPUT_KEY.length - 1;
  let end = line.length - 1;
  for (let c = line.charCodeAt(end); c === 0x0d || c === 0x20 || c === 0x09; c = line.charCodeAt(end)) end--; // a CRLF line's CR
  if (line.charCodeAt(end) !== 0x7d /* } */ || line.charCodeAt(end - 1) !== 0x22) return undefined;
  // `…","sessionId":"s1"}` or `…"}`: the last string is the session id if it is written plainly.
  let sessionId: string | undefined;
  const open = line.lastIndexOf('"', end - 2);
  const keyAt = open - (SESSION_KEY.length - 1);
  if (keyAt > inputStart && line.startsWith(SESSION_KEY, keyAt) && plainEnd(line, open + 1) === end - 1) {
    sessionId = line.slice(open + 1, end - 1);
    end = keyAt + 1;
  }
  let input: unknown;
  try {
    input = JSON.parse(line.slice(inputStart, end));
  } catch {
    return undefined;
  }
  if (typeof input !== 'string') return undefined;
  const toolName = line.slice(HEAD.length, toolEnd);
  return sessionId === undefined ? { toolName, input } : { toolName, input, sessionId };
}

/** Any request line, read member by member. */
function scanRequestLine(line: string): ApprovalRequest | string {
  const scan = scanObjectMembers(line);
  if (scan.kind === 'invalid') return scan.tooDeep ? `request line nests deeper than ${MAX_JSON_DEPTH} levels` : 'request line is not valid JSON';
  if (scan.kind === 'other') return 'request line is not a JSON object';
  const members = scan.members;
  const folded: string[] = [];
  const index = members.length > PAIRWISE_MEMBERS ? new Map<string, number>() : undefined;
  let tool = -1;
  let input = -1;
  let session = -1;
  for (let k = 0; k < members.length; k++) {
    const key = members[k]!.key;
    const f = caseFold(key);
    const prior = index === undefined ? folded.indexOf(f) : (index.get(f) ?? -1);
    if (prior >= 0) {
      const first = members[prior]!.key;
      return first === key
        ? `request line repeats the key \`${shown(key)}\``
        : `request line repeats the key \`${shown(first)}\` as \`${shown(key)}\``;
    }
    folded.push(f);
    index?.set(f, k);
    if (f === TOOL_NAME) tool = k;
    else if (f === INPUT) input = k;
    else if (f === SESSION_ID) session = k;
  }
  const toolName = tool < 0 ? undefined : members[tool]!.string;
  if (toolName === undefined) return 'request has no string `toolName`';
  let text = '';
  if (input >= 0) {
    const m = members[input]!;
    text = m.string ?? line.slice(m.start, m.end);
  }
  const sessionId = session < 0 ? undefined : members[session]!.string;
  return sessionId === undefined ? { toolName, input: text } : { toolName, input: text, sessionId };
}
