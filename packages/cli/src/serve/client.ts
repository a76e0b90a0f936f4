/**
 * `verdict hook --server ADDRESS`: the hook asks a running `verdict serve` for the answer (a request
 * over a unix socket or loopback costs well under a millisecond, where compiling the policy costs
 * tens). Anything but a well-formed answer in time (no server, a refused or reset connection, a
 * status other than 200, a body that is not the answer's shape, the timeout) is `undefined`: the
 * hook then decides in-process, so a server that is gone never turns into an allow.
 */
import { request } from 'node:http';
import type { HookAnswer, HookDecision } from '../hook/dialects.ts';
import type { Address } from './address.ts';

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

/** Posts `payload` to `/v1/hooks/<agent>?form=command`; never rejects. */
export function askServer(address: Address, agent: string | undefined, payload: string, query: string, timeoutMs: number, token?: string): Promise<Asked> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (a: Asked): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const path = `/v1/hooks${agent ? `/${agent}` : ''}?form=command${query}`;
    const body = Buffer.from(payload, 'utf8');
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': body.length };
    if (token !== undefined) headers['Authorization'] = `Bearer ${token}`;
    const target = address.kind === 'unix' ? { socketPath: address.path } : { host: address.host, port: address.port };
    const req = request({ ...target, path, method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (c: Buffer) => {
        total += c.length;
        if (total > 16 * 1024 * 1024) req.destroy(new Error('the answer is too long'));
        else chunks.push(c);
      });
      res.on('error', (err) => settle({ ok: false, why: err.message }));
      res.on('end', () => {
        if (res.statusCode !== 200) return settle({ ok: false, why: `status ${res.statusCode}` });
        const value = shape(Buffer.concat(chunks).toString('utf8'));
        settle(value ? { ok: true, value } : { ok: false, why: 'the answer is not a hook answer' });
      });
    });
    const timer = setTimeout(() => {
      settle({ ok: false, why: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, why: err.code ?? err.message }));
    req.end(body);
  });
}
