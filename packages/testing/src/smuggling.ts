/** Repeated keys as an attack: a property of its own, apart from the re-spellings. */
import { type ToolCall } from './calls.ts';
import { duplicateKeys } from './attacks.ts';
import { compact, effective, parseJson } from './json.ts';
import { decide, type PolicyUnderTest } from './policy.ts';
import { type DomainOptions, defineProperty, type PolicyProperty } from './properties.ts';
import fc from 'fast-check';

/** The call as the tool will run it: every repeated key reduced to its last value. */
export function effectiveCall(call: ToolCall): ToolCall {
  const v = parseJson(call.input);
  return v ? { tool: call.tool, input: compact(effective(v)) } : call;
}

/**
 * A repeated key never smuggles a call through: when the policy allows an input that repeats a key,
 * it also allows the value the tool will really run (the last one), which it must not deny or ask about. Raw-mode allow rules written
 * against `"command":"…"` fail it; canonical mode, which rejects repeated keys, holds.
 */
export function noDuplicateKeySmuggling(policy: PolicyUnderTest, options: DomainOptions = {}): PolicyProperty {
  const tools = [...new Set((policy.config?.allow ?? []).map((r) => r.tool).filter((t) => t !== ''))];
  const tool = tools.length ? fc.constantFrom(...tools) : fc.constantFrom('bash', 'Bash');
  const keys = [...new Set((policy.config?.allow ?? []).flatMap((r) => (r.field ? [r.field] : [])))];
  const arbitrary =
    options.calls ??
    (keys.length ? fc.constantFrom(...keys, 'command').chain((key) => duplicateKeys({ tool, key })) : duplicateKeys({ tool }));
  return defineProperty({
    name: 'noDuplicateKeySmuggling',
    statement: `${policy.name} allows no repeated-key input whose last value it denies`,
    arbitrary,
    // An ask is not an allow: a repeated key that hides a call the policy asks about smuggles it too.
    holds: (call) => !(decide(policy, call).decision === 'allow' && decide(policy, effectiveCall(call)).decision !== 'allow'),
    explain: (call) => {
      const real = effectiveCall(call);
      const hidden = decide(policy, real).decision === 'ask' ? 'asks about' : 'denies';
      return {
        summary: `${policy.name} allows an input whose repeated key hides a call it ${hidden}`,
        observations: [
          { policy: policy.name, call, explanation: decide(policy, call) },
          { policy: `${policy.name} (the value the tool runs)`, call: real, explanation: decide(policy, real) },
        ],
        tests: [{ call, expect: 'deny' }],
      };
    },
  });
}
