/**
 * The built-in driver descriptors (semantics.md B4, the seed's matrix). The JSON files in
 * `packages/engine/descriptors/` are the published form of the same data; a test keeps the two equal.
 * Kept as TypeScript here because the engine reads no files and its sources are rooted in `src/`.
 */
import type { ApprovalModeCaps, DriverDescriptor, QuestionModeCaps } from './types.ts';

export type BuiltinDriverName = 'codex' | 'claude' | 'cursor' | 'codebuddy';

export const BUILTIN_DRIVER_NAMES: readonly BuiltinDriverName[] = Object.freeze([
  'codex',
  'claude',
  'cursor',
  'codebuddy',
]);

const NONE: ApprovalModeCaps = { ask: false, auto_approve: false, auto_reject: false, retry: false };
const NO_QUESTIONS: QuestionModeCaps = { ask: false, auto_reject: false, retry: false };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export const builtinDescriptors: Readonly<Record<BuiltinDriverName, DriverDescriptor>> = deepFreeze({
  codex: {
    type: 'codex',
    run_policy_caps: {
      isolation: true,
      web_search: true,
      browser: false,
      permission: { ...NONE, auto_approve: true },
      plan_review: { ...NONE },
      question: { ...NO_QUESTIONS },
    },
    structured_output: { works_with_hitl: false },
  },
  claude: {
    type: 'claude',
    run_policy_caps: {
      isolation: false,
      web_search: false,
      browser: true,
      permission: { ...NONE, auto_approve: true, auto_reject: true },
      plan_review: { ...NONE, ask: true, auto_approve: true, auto_reject: true },
      question: { ...NO_QUESTIONS, ask: true, auto_reject: true },
    },
    structured_output: { works_with_hitl: false },
  },
  cursor: {
    type: 'cursor',
    run_policy_caps: {
      isolation: false,
      web_search: false,
      browser: false,
      permission: { ...NONE, auto_approve: true },
      plan_review: { ...NONE },
      question: { ...NO_QUESTIONS },
    },
    structured_output: { works_with_hitl: false },
  },
  codebuddy: {
    type: 'codebuddy',
    run_policy_caps: {
      isolation: false,
      web_search: false,
      browser: false,
      permission: { ...NONE, ask: true, auto_approve: true, auto_reject: true },
      plan_review: { ...NONE, ask: true, auto_approve: true, auto_reject: true },
      question: { ...NO_QUESTIONS, ask: true, auto_reject: true },
    },
    structured_output: { works_with_hitl: false },
  },
});

/** The built-in descriptor of that exact (lowercase) name, or undefined. */
export function getBuiltinDescriptor(name: string): DriverDescriptor | undefined {
  return (BUILTIN_DRIVER_NAMES as readonly string[]).includes(name)
    ? builtinDescriptors[name as BuiltinDriverName]
    : undefined;
}
