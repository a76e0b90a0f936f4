/**
 * `POST /v1/decide`: a request as `verdict eval` reads a line, answered with the line `verdict eval`
 * writes; with `Content-Type: application/x-ndjson` (or `jsonl`, `x-jsonlines`), any number of
 * lines, one answer line each (blank lines get none, as in `verdict eval`).
 */
import type { ApprovalRequest, RuledResult } from '@verdict/engine';
import { badRequest, createDecisionFormatter, isBlank } from '../../input/eval-line.ts';
import { readRequestLine } from '../../input/eval-request.ts';
import type { ErrorKind } from '../metrics.ts';
import type { LoadedPolicy } from '../policy.ts';
import { round, type RouteAnswer, type RouteContext, ruleAt, ruleName, withoutBom } from './route.ts';

/** Whether the request's content type asks for a batch of lines. */
export function isBatch(contentType: string | undefined): boolean {
  return /^application\/(x-ndjson|jsonl|x-jsonlines)\b/i.test(contentType ?? '');
}

const contentType = (batch: boolean): string => (batch ? 'application/x-ndjson' : 'application/json');

/** The route's deny, for a request it cannot decide. */
export function decideRefusal(status: number, reason: string, version: string, batch: boolean): Omit<RouteAnswer, 'audit'> {
  return { status, headers: { 'Verdict-Policy-Version': version, 'Content-Type': contentType(batch) }, body: `${badRequest(reason)}\n` };
}

/** A decide route; its line format caches lines per rule, so one formatter serves the server's life. */
export function createDecideRoute(): (ctx: RouteContext, body: Buffer, batch: boolean) => RouteAnswer {
  const format = createDecisionFormatter();

  const decideOne = (ctx: RouteContext, loaded: LoadedPolicy, line: Uint8Array, audit: Record<string, unknown>[]): string => {
    const began = performance.now();
    let e: RuledResult | undefined;
    let out: string;
    let request: ApprovalRequest | string = '';
    let error: ErrorKind | undefined;
    try {
      request = readRequestLine(line);
      if (typeof request === 'string') {
        error = 'bad_request';
        out = badRequest(request);
      } else {
        e = loaded.approver.decide(request);
        out = format(e);
      }
    } catch (err) {
      error = 'internal';
      out = badRequest(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (error) ctx.metrics.error(error);
    const decision = e?.decision ?? 'deny';
    ctx.metrics.decision('decide', decision, ruleName(e?.rule));
    if (ctx.auditing) {
      const r = typeof request === 'string' ? undefined : request;
      audit.push({
        time: new Date().toISOString(),
        endpoint: 'decide',
        policy: loaded.version,
        agent: null,
        tool: r?.toolName ?? null,
        decision,
        rule: e?.rule ? ruleName(e.rule) : null,
        at: ruleAt(e?.rule),
        reason: e ? e.reason : typeof request === 'string' ? request : null,
        ...(error ? { error } : {}),
        ms: round(performance.now() - began),
        ...(ctx.logInputs ? { input: r?.input ?? Buffer.from(line).toString('utf8') } : { inputBytes: line.length }),
      });
    }
    return out;
  };

  return (ctx, body, batch) => {
    const loaded = ctx.policy.current;
    const bytes = withoutBom(body);
    const audit: Record<string, unknown>[] = [];
    let text: string;
    if (!batch) text = `${decideOne(ctx, loaded, bytes, audit)}\n`;
    else {
      text = '';
      let start = 0;
      while (start < bytes.length) {
        let nl = bytes.indexOf(0x0a, start);
        if (nl === -1) nl = bytes.length;
        const line = bytes.subarray(start, nl);
        start = nl + 1;
        // Bytes read as Latin-1 are one character each: blank exactly when the line's bytes are.
        if (isBlank(line.toString('latin1'))) continue;
        text += `${decideOne(ctx, loaded, line, audit)}\n`;
      }
    }
    return { status: 200, headers: { 'Verdict-Policy-Version': loaded.version, 'Content-Type': contentType(batch) }, body: text, audit };
  };
}
