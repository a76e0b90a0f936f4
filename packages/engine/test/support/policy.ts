/** Test helpers: the policy file encoding (semantics.md B1) to and from the engine's Policy. */
import { readFileSync } from 'node:fs';
import { zeroPolicy } from '../../src/policy/defaults.ts';
import { parseGoDuration } from '../../src/policy/duration.ts';
import type { Policy } from '../../src/policy/types.ts';

export interface FilePolicy {
  sandbox?: string;
  web_search?: string;
  browser?: string;
  approvals?: {
    permission?: string;
    plan_review?: string;
    question?: string;
    timeout?: string;
    on_timeout?: string;
    on_reject?: string;
    max_retries?: number;
  };
}

export function fromFilePolicy(file: FilePolicy): Policy {
  const policy = zeroPolicy();
  const a = file.approvals ?? {};
  policy.sandbox = file.sandbox ?? '';
  policy.webSearch = file.web_search ?? '';
  policy.browser = file.browser ?? '';
  policy.approvals.permission = a.permission ?? '';
  policy.approvals.planReview = a.plan_review ?? '';
  policy.approvals.question = a.question ?? '';
  policy.approvals.onTimeout = a.on_timeout ?? '';
  policy.approvals.onReject = a.on_reject ?? '';
  policy.approvals.maxRetries = a.max_retries ?? 0;
  if (a.timeout !== undefined) {
    const parsed = parseGoDuration(a.timeout);
    if (!parsed.ok) throw new Error(`fixture timeout: ${parsed.error}`);
    policy.approvals.timeout = parsed.ns;
  }
  return policy;
}


/** The repository root, from a file in `packages/engine/test/support/`. */
export const REPO_ROOT = new URL('../../../../', import.meta.url);

export function readRepoJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, REPO_ROOT), 'utf8')) as unknown;
}
