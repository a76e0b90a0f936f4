/**
 * `verdict hook --server ADDRESS`: the hook asks a running `verdict serve` for the answer (a request
 * over a unix socket or loopback costs well under a millisecond, where compiling the policy costs
 * tens). Anything but a well-formed answer in time (no server, a refused or reset connection, a
 * status other than 200, a body that is not the answer's shape, the timeout) is `undefined`: the
 * hook then decides in-process, so a server that is gone never turns into an allow.
 */
import { connect } from 'node:net';
import type { HookAnswer, HookDecision } from '../hook/dialects.ts';
import { type Address, showAddress } from './address.ts';

export interface ServerAnswer {
  answer: HookAnswer;
  decision: HookDecision;
  reason: string;
  rule: string | null;
  agent?: string;
  event?: string;
  tool?: string;
  policyVersion: string;
}

export type Asked = { ok: true; value: ServerAnswer } | { ok: false; why: string };

function shape(body: string): ServerAnswer | undefined {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const { exitCode, stdout, stderr, decision, reason, rule, agent, event, tool, policyVersion } = v;
  if ((exitCode !== 0 && exitCode !== 2) || typeof stdout !== 'string' || typeof stderr !== 'string') return undefined;
  if (decision !== 'allow' && decision !== 'deny' && decision !== 'ask') return undefined;
  if (typeof policyVersion !== 'string') return undefined;
  const out: ServerAnswer = { answer: { exitCode, stdout, stderr }, decision, reason: typeof reason === 'string' ? reason : '', rule: typeof rule === 'string' ? rule : null, policyVersion };
  if (typeof agent === 'string') out.agent = agent;
  if (typeof event === 'string') out.event = event;
  if (typeof tool === 'string') out.tool = tool;
  return out;
}

/** Longest answer read; a longer one is not a hook answer. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The body of one HTTP/1.1 response read whole (the request asked the server to close): the status
 * line, the headers, and exactly `Content-Length` bytes of body (`verdict serve` always sends it);
 * anything else (no length, a chunked body, bytes missing or left over) is not an answer.
 */
function readResponse(raw: Buffer): { status: number; body: string } | string {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return 'the answer has no end of headers';
  const head = raw.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(head[0] ?? '');
  if (!m) return 'the answer is not HTTP';
  let length: number | undefined;
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return 'the answer has a malformed header';
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'transfer-encoding') return 'the answer is chunked';
    if (name === 'content-length') {
      if (!/^\d{1,9}$/.test(value) || (length !== undefined && length !== Number(value))) return 'the answer has a bad Content-Length';
      length = Number(value);
    }
  }
  if (length === undefined) return 'the answer has no Content-Length';
  const body = raw.subarray(end + 4);
  if (body.length !== length) return `the answer has ${body.length} bytes of body, not ${length}`;
  return { status: Number(m[1]), body: body.toString('utf8') };
}

/**
 * Posts `payload` to `/v1/hooks/<agent>?form=command`; never rejects. A plain socket and a request
 * written by hand, not `node:http`: the hook is a fresh process per tool call, and the HTTP client
 * costs more to load and to run once than the whole round trip to the server.
 */
export function askServer(address: Address, agent: string | undefined, payload: string, query: string, timeoutMs: number, token?: string): Promise<Asked> {
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (a: Asked): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(a);
    };
    if (token !== undefined && /[\r\n\0]/.test(token)) {
      resolve({ ok: false, why: 'the token holds a line break' });
      return;
    }
    const path = `/v1/hooks${agent ? `/${agent}` : ''}?form=command${query}`;
    const body = Buffer.from(payload, 'utf8');
    const host = address.kind === 'unix' ? 'localhost' : showAddress(address);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n` +
      `${token !== undefined ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`;
    const socket = address.kind === 'unix' ? connect(address.path) : connect(address.port, address.host);
    const timer = setTimeout(() => settle({ ok: false, why: `no answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('connect', () => {
      socket.write(head, 'latin1');
      socket.write(body);
    });
    socket.on('data', (c: Buffer) => {
      total += c.length;
      if (total > MAX_ANSWER_BYTES) settle({ ok: false, why: 'the answer is too long' });
      else chunks.push(c);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, why: err.code ?? err.message }));
    socket.on('close', () => {
      const res = readResponse(Buffer.concat(chunks, total));
      if (typeof res === 'string') return settle({ ok: false, why: res });
      if (res.status !== 200) return settle({ ok: false, why: `status ${res.status}` });
      const value = shape(res.body);
      settle(value ? { ok: true, value } : { ok: false, why: 'the answer is not a hook answer' });
    });
  });
}
