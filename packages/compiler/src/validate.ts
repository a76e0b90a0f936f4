/**
 * Stage `validate`: the JSON Schemas over the document tree (YAML and JSON), then the semantic
 * checks over the IR, whatever syntax it came from: the approver configuration exactly as the
 * reference loads it (semantics.md A2, through the engine), regexes, and the run Policy's value
 * domains and durations (B1, B5.1). The policy is lowered here once it is known to be sound.
 */
import {
  checkApproverConfig,
  EXCERPT_CHARS,
  excerpt,
  parseGoDuration,
  POLICY_DOMAIN_ORDER,
  POLICY_DOMAINS,
  POLICY_FIELD_NAMES,
  policyField,
  policyFieldIR,
  ruleLabel,
  rulesOf,
  shortRegexError,
} from '@verdict/engine';
import type {
  ApproverConfigIssue,
  ApproverIR,
  Diagnostic,
  Located,
  PolicyEnumKey,
  PolicyIR,
  RuleIR,
  Span,
} from '@verdict/engine';
import { TOO_LARGE, TOO_LARGE_HELP } from '@verdict/engine';
import { didYouMean, normalizeWord } from './did-you-mean.ts';
import { lowerPolicy } from './lower.ts';
import { SourceMap } from './positions.ts';
import { getValidators, schemaDiagnostics } from './schemas.ts';
import { entryOf, toPlain } from './tree.ts';
import type { CompileState } from './types.ts';

/** Error codes that describe a policy the SDK itself would reject: reported, but compilation goes on. */
export const NON_BLOCKING_CODES: ReadonlySet<string> = new Set(['policy/invalid-value']);

/** True for an error that stops the pipeline (every error except the SDK-level policy ones). */
export function isBlocking(d: Diagnostic): boolean {
  return d.severity === 'error' && !NON_BLOCKING_CODES.has(d.code);
}

/** Codes whose diagnostic carries the reference's exact load-error text as its first `related` entry. */
export const GO_TEXT_CODES: ReadonlySet<string> = new Set([
  'approver/unknown-mode',
  'approver/unknown-default',
  'regex/invalid',
  'policy/invalid-duration',
]);

/** The reference implementation's own error text for a diagnostic (what `verdict eval` can print), if any. */
export function goMessage(d: Diagnostic): string | undefined {
  return GO_TEXT_CODES.has(d.code) ? d.related?.[0]?.message : undefined;
}

const MODES = ['allow_all', 'deny_all', 'pattern'];

function withSpan(d: Diagnostic, span: Span | undefined): Diagnostic {
  if (span) d.span = span;
  return d;
}

function ruleOf(ir: ApproverIR, issue: ApproverConfigIssue): RuleIR | undefined {
  if (issue.list === undefined || issue.index === undefined) return undefined;
  return rulesOf(ir, issue.list)[issue.index];
}

/** An engine configuration issue as a located diagnostic; the Go text goes in `related`. */
export function approverIssueDiagnostic(
  ir: ApproverIR,
  issue: ApproverConfigIssue,
  compat: boolean,
  placementPath: readonly (string | number)[],
): Diagnostic {
  // Go's text, with the user's text in it shortened (a pattern of millions of characters is quoted in it).
  const goText = issue.code === 'regex/invalid' ? shortRegexError(issue.message) : excerpt(issue.message, 2 * EXCERPT_CHARS);
  const goNote = (span: Span | undefined) => [span ? { message: goText, span } : { message: goText }];
  if (issue.code === 'approver/unknown-mode') {
    const s = didYouMean(ir.mode.trim(), MODES);
    return withSpan(
      {
        code: issue.code,
        severity: 'error',
        message: `unknown approver mode \`${excerpt(ir.mode)}\``,
        help:
          (s !== undefined ? `did you mean \`${s}\`? ` : '') +
          'the modes are `allow_all`, `deny_all` and `pattern` (case and surrounding spaces do not matter)',
        path: [...placementPath, 'mode'],
        related: goNote(ir.modeSpan),
      },
      ir.modeSpan,
    );
  }
  if (issue.code === 'approver/unknown-default') {
    const d = ir.default;
    let help: string;
    if (d.trim() !== d && ['allow', 'deny'].includes(d.trim().toLowerCase())) {
      help = `\`default\` is not trimmed: write \`${d.trim()}\` without the surrounding spaces`;
    } else {
      const s = didYouMean(d, ['allow', 'deny']);
      help = (s !== undefined ? `did you mean \`${s}\`? ` : '') + 'the default is `allow` or `deny` (empty means deny)';
    }
    return withSpan(
      {
        code: issue.code,
        severity: 'error',
        message: `unknown default decision \`${excerpt(d)}\``,
        help,
        path: [...placementPath, 'default'],
        related: goNote(ir.defaultSpan),
      },
      ir.defaultSpan,
    );
  }
  if (issue.code.startsWith('command/')) return commandIssueDiagnostic(ir, issue, placementPath);
  // regex/invalid
  const rule = ruleOf(ir, issue);
  if (rule !== undefined && (issue.field === 'args' || issue.field === 'redirect')) {
    const key = issue.field;
    const pattern = rule[key] ?? '';
    const at = rule[`${key}Span`] ?? rule.span;
    return withSpan(
      {
        code: issue.code,
        severity: compat ? 'warning' : 'error',
        message: `invalid regular expression \`${excerpt(pattern)}\` in \`${key}\` of \`${ruleLabel({ list: issue.list ?? 'allow', index: issue.index ?? 0 })}\``,
        help: shortRegexError(issue.regexError ?? issue.message),
        path: [...placementPath, issue.list ?? 'allow', issue.index ?? 0, key],
      },
      at,
    );
  }
  const where = issue.list !== undefined && issue.index !== undefined ? ` in \`${ruleLabel({ list: issue.list, index: issue.index })}\`` : '';
  const span = rule?.matchSpan ?? rule?.span;
  const detail = shortRegexError(issue.regexError ?? issue.message);
  return withSpan(
    {
      code: issue.code,
      severity: compat ? 'warning' : 'error',
      message: `invalid regular expression \`${excerpt(rule?.match ?? '')}\`${where}`,
      help: detail.includes(TOO_LARGE)
        ? `${detail}; ${TOO_LARGE_HELP}${compat ? '; in compatibility mode the approver denies every call' : ''}`
        : compat
        ? `${detail}; in compatibility mode the approver denies every call, as the reference does`
        : /unsupported Perl syntax|invalid escape sequence|invalid nested repetition/.test(detail)
          ? `${detail}; Go's regexp (RE2) has no lookaround, backreferences or possessive quantifiers`
          : detail,
      path: [...placementPath, issue.list ?? 'allow', issue.index ?? 0, 'match'],
      related: goNote(span),
    },
    span,
  );
}

const COMMAND_HELP: Readonly<Record<string, string>> = {
  'command/invalid-rule': 'a command rule has `command` (an argv prefix: words, or lists of alternatives), optionally `args`, and/or `redirect`; a regex rule has `match` and `field`',
  'command/not-shell-tool':
    'command rules apply to the tools in `shell:` (absent: `Bash`, `run_shell_command` and `Shell`, each with its text in `command`); add the tool there, e.g. `shell: [{tool: X, field: command}]`',
  'command/unknown-decision': 'write `unknown: deny` (the default) or `unknown: ask`; what cannot be judged is never allowed',
  'command/invalid-environment': '`environment:` names variables a command may be run with beyond the harmless ones (locale, TZ, TERM, NO_COLOR, CI…); a shell\'s own variables and those that make a program run code cannot be made harmless (docs/shell.md "Environment")',
  'command/invalid-shells': '`shells:` lists the shells that may run the text: `bash`, `zsh`, `sh` (dash) or `any` (docs/shell.md "Which shell")',
  'command/no-judge': 'this program was built without `@verdict/shell`; pass its `commandJudgeFactory` as the `commandJudge` compile option',
};

/** A command rule's load problem (a Verdict extension) as a located diagnostic. */
function commandIssueDiagnostic(ir: ApproverIR, issue: ApproverConfigIssue, placementPath: readonly (string | number)[]): Diagnostic {
  const rule = ruleOf(ir, issue);
  const help = COMMAND_HELP[issue.code] ?? '';
  if (issue.code === 'command/invalid-environment') {
    return withSpan({ code: issue.code, severity: 'error', message: issue.message, help, path: [...placementPath, 'environment'] }, ir.environmentSpan);
  }
  if (issue.code === 'command/invalid-shells') {
    return withSpan({ code: issue.code, severity: 'error', message: issue.message, help, path: [...placementPath, 'shells'] }, ir.shellsSpan);
  }
  if (issue.code === 'command/unknown-decision') {
    return withSpan({ code: issue.code, severity: 'error', message: `unknown decision \`${excerpt(ir.unknown ?? '')}\` for commands that cannot be judged`, help, path: [...placementPath, 'unknown'] }, ir.unknownSpan);
  }
  let span = rule?.span;
  let key: string = issue.field;
  if (rule !== undefined) {
    if (issue.field === 'tool') span = rule.toolSpan ?? rule.span;
    else if (issue.field === 'args') span = rule.argsSpan ?? rule.span;
    else if (issue.field === 'command') {
      // Both `match` and a command key: point at the regex, which is the one that cannot stay.
      const both = rule.match !== '' || rule.field !== undefined;
      span = both ? (rule.matchSpan ?? rule.fieldSpan ?? rule.span) : (rule.commandSpan ?? rule.span);
      if (both) key = rule.match !== '' ? 'match' : 'field';
    }
  }
  const message = issue.code === 'command/no-judge' ? 'command rules cannot be judged: no command judge was given' : issue.message;
  const path = issue.list !== undefined && issue.index !== undefined ? [...placementPath, issue.list, issue.index, key] : [...placementPath];
  return withSpan({ code: issue.code, severity: 'error', message, help, path }, span);
}

function placementPath(state: CompileState): (string | number)[] {
  const p = state.ir?.approverPlacement;
  if (p === 'approver') return ['approver'];
  if (p === 'agent.approver') return ['agent', 'approver'];
  return [];
}

function checkApprover(state: CompileState): void {
  const ir = state.ir?.approver;
  if (!ir) return;
  const compat = state.options.compat === true;
  for (const issue of checkApproverConfig(ir)) {
    // The schema already names a bad `unknown:` value at its place.
    if (issue.code === 'command/unknown-decision' && state.diagnostics.some((d) => d.span?.start.offset === ir.unknownSpan?.start.offset)) continue;
    state.diagnostics.push(approverIssueDiagnostic(ir, issue, compat, placementPath(state)));
  }
}


function policyPath(key: string): string[] {
  return ['policy', ...key.split('.')];
}

function valueHelp(key: PolicyEnumKey, value: string, domain: readonly string[]): string {
  const list = domain.map((v) => `\`${v}\``).join(', ');
  const field = key.split('.').pop() ?? key;
  // `inherit`, or the SDK's constant for it (`SandboxInherit`, `FeatureInherit`, `QuestionInherit`)
  if (/^(?:sandbox|feature|approval|question)?inherit$/.test(normalizeWord(value))) return `leave \`${field}\` out (or write \`""\`) to inherit; values are ${list}`;
  if (key === 'approvals.question' && value === 'auto_approve') {
    return `a question needs a real answer, so there is no \`auto_approve\`: \`question\` accepts ${list}`;
  }
  const s = didYouMean(value, domain);
  return (s !== undefined ? `did you mean \`${s}\`? ` : '') + `values are case-sensitive: ${list}`;
}

function checkPolicy(state: CompileState): void {
  const p = state.ir?.policy;
  if (!p) return;
  for (const key of POLICY_DOMAIN_ORDER) {
    const v = policyFieldIR(p, policyField(key)) as Located<string> | undefined;
    if (!v || v.value === '') continue;
    const domain = POLICY_DOMAINS[key];
    if (domain.includes(v.value)) continue;
    state.diagnostics.push(
      withSpan(
        {
          code: 'policy/invalid-value',
          severity: 'error',
          message: `invalid value \`${v.value}\` for \`${POLICY_FIELD_NAMES[key]}\``,
          help: valueHelp(key, v.value, domain),
          path: policyPath(key),
        },
        v.span,
      ),
    );
  }
  const mr = p.approvals?.maxRetries;
  if (mr) {
    if (Object.is(mr.value, -0)) {
      state.diagnostics.push(
        withSpan(
          {
            code: 'policy/negative-zero',
            severity: 'warning',
            message: '`max_retries` is `-0`, which is zero: the default of 3 retries applies',
            help: 'write `0` (or leave the key out) for the default',
            path: policyPath('approvals.max_retries'),
          },
          mr.span,
        ),
      );
    } else if (!Number.isSafeInteger(mr.value)) {
      state.diagnostics.push(
        withSpan(
          {
            code: 'policy/out-of-range',
            severity: 'error',
            message: `\`max_retries\` value \`${mr.value}\` is out of range`,
            help: 'use a small whole number: each retry asks a person again',
            path: policyPath('approvals.max_retries'),
          },
          mr.span,
        ),
      );
    } else if (mr.value < 0) {
      state.diagnostics.push(
        withSpan(
          {
            code: 'policy/invalid-value',
            severity: 'error',
            message: `invalid value \`${mr.value}\` for \`${POLICY_FIELD_NAMES['approvals.max_retries']}\``,
            help: '`max_retries` must be 0 (the default: 3 retries) or more',
            path: policyPath('approvals.max_retries'),
          },
          mr.span,
        ),
      );
    }
  }
  const timeout = p.approvals?.timeout;
  if (timeout && timeout.value !== '') {
    const r = parseGoDuration(timeout.value);
    if (!r.ok) {
      const noUnit = /^[-+]?[0-9.]+$/.test(timeout.value);
      // Well-formed but beyond int64 nanoseconds: Go says only "invalid duration", so say why.
      const overflow = /^[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+$/.test(timeout.value);
      state.diagnostics.push(
        withSpan(
          {
            code: 'policy/invalid-duration',
            severity: 'error',
            message: `invalid duration \`${timeout.value}\` for \`timeout\``,
            help: noUnit
              ? `a duration needs a unit: write \`${timeout.value.replace(/^\+/, '')}s\` for seconds (units: ns, us, ms, s, m, h)`
              : overflow
                ? 'the largest Go duration is `2562047h47m16.854775807s` (about 292 years) and the smallest is `-2562047h47m16.854775808s`; a negative timeout already means no deadline'
                : 'write a Go duration such as `30s`, `5m` or `1h30m` (units: ns, us, ms, s, m, h; no days)',
            path: policyPath('approvals.timeout'),
            related: [timeout.span ? { message: r.error, span: timeout.span } : { message: r.error }],
          },
          timeout.span,
        ),
      );
    } else if (r.ns === 0n && timeout.value.trim().startsWith('-')) {
      state.diagnostics.push(
        withSpan(
          {
            code: 'policy/negative-zero',
            severity: 'warning',
            message: `\`timeout\` is \`${timeout.value}\`, which is zero, not negative: the default of 30s applies`,
            help: 'write a negative duration such as `-1s` for no deadline, or `0` for the default',
            path: policyPath('approvals.timeout'),
          },
          timeout.span,
        ),
      );
    }
  }
}

export function runValidate(state: CompileState): void {
  const tree = state.tree;
  if (tree) {
    const sourceMap = new SourceMap(tree);
    const plain = toPlain(tree);
    const v = getValidators();
    const isAgentFile = tree.kind === 'map' && entryOf(tree, 'agent') !== undefined;
    const validate = isAgentFile ? v.agentFile : v.file;
    if (!validate(plain)) for (const d of schemaDiagnostics(validate.errors ?? [], sourceMap)) state.diagnostics.push(d);
  }
  checkApprover(state);
  checkPolicy(state);
  const policy = state.ir?.policy;
  if (policy && !state.diagnostics.some(isBlocking)) state.policy = lowerPolicy(policy);
}
