/**
 * The rule catalogue, in documentation order. Each rule lives in `<id with / as ->.ts` beside its
 * table test (`.test.ts`) and has a page in `packages/lint/docs/rules/`; `test/meta.test.ts` fails
 * when a rule, its test, its page and this list drift apart. Add new rules here (one import and
 * one entry each); static-analysis rules (`analysis-*.ts`) go in their own block.
 */
import type { Rule } from '../types.ts';
import approverDefaultAllow from './approver-default-allow.ts';
import approverProtectionLifted from './approver-protection-lifted.ts';
import approverReason from './approver-reason.ts';
import hookDefaultAllow from './hook-default-allow.ts';
import hookUnknownInputKey from './hook-unknown-input-key.ts';
import hookUnknownTool from './hook-unknown-tool.ts';
import lintInternalError from './lint-internal-error.ts';
import lintUnusedSuppression from './lint-unused-suppression.ts';
import policyAutoDenyUnsupported from './policy-auto-deny-unsupported.ts';
import policyCapabilityUnsupported from './policy-capability-unsupported.ts';
import policyMaxRetriesZero from './policy-max-retries-zero.ts';
import policyModeUnsupported from './policy-mode-unsupported.ts';
import policyNegativeTimeoutRetry from './policy-negative-timeout-retry.ts';
import policyQuestionEndsRun from './policy-question-ends-run.ts';
import policyRetryUnsupported from './policy-retry-unsupported.ts';
import policyUnrestrictedOpen from './policy-unrestricted-open.ts';
import regexImpossibleAnchor from './regex-impossible-anchor.ts';
import regexInvalid from './regex-invalid.ts';
import regexLargeProgram from './regex-large-program.ts';
import regexMixedAlternation from './regex-mixed-alternation.ts';
import regexUnsupportedSyntax from './regex-unsupported-syntax.ts';
import regexYamlEscape from './regex-yaml-escape.ts';
import rulesCanonicalWhitespace from './rules-canonical-whitespace.ts';
import rulesCommandAllowsAnything from './rules-command-allows-anything.ts';
import rulesCommandNeverMatches from './rules-command-never-matches.ts';
import rulesDuplicate from './rules-duplicate.ts';
import rulesEmptyField from './rules-empty-field.ts';
import rulesEscapeEvasion from './rules-escape-evasion.ts';
import rulesFieldDenyEvasion from './rules-field-deny-evasion.ts';
import rulesIgnoredByMode from './rules-ignored-by-mode.ts';
import rulesMissingTool from './rules-missing-tool.ts';
import rulesNestedKeySpoof from './rules-nested-key-spoof.ts';
import rulesShellInjection from './rules-shell-injection.ts';
import rulesShellSeparator from './rules-shell-separator.ts';
import rulesPreferCommandRule from './rules-prefer-command-rule.ts';
import rulesUnreachable from './rules-unreachable.ts';
import testsFailing from './tests-failing.ts';
// agents' own permission files (native-*.ts): imports here
import nativeAllowRunsAnything from './native-allow-runs-anything.ts';
import nativeDenyWalkedAround from './native-deny-walked-around.ts';
import nativeFileNotLoaded from './native-file-not-loaded.ts';
import nativeNeverConsulted from './native-never-consulted.ts';
import nativePrefixAlternatives from './native-prefix-alternatives.ts';
import nativeRegexDropped from './native-regex-dropped.ts';
import nativeScopeConflict from './native-scope-conflict.ts';
import nativeUnknownKey from './native-unknown-key.ts';
import nativeUnknownTool from './native-unknown-tool.ts';
// static analysis rules (analysis-*.ts): imports here
import analysisDeadRule from './analysis-dead-rule.ts';
import analysisOverlap from './analysis-overlap.ts';
import analysisShadowedRule from './analysis-shadowed-rule.ts';

export const allRules: readonly Rule[] = Object.freeze([
  regexInvalid,
  regexUnsupportedSyntax,
  regexImpossibleAnchor,
  regexMixedAlternation,
  regexYamlEscape,
  regexLargeProgram,
  rulesDuplicate,
  rulesUnreachable,
  rulesIgnoredByMode,
  rulesMissingTool,
  rulesEmptyField,
  rulesShellInjection,
  rulesShellSeparator,
  rulesPreferCommandRule,
  rulesNestedKeySpoof,
  rulesEscapeEvasion,
  rulesCanonicalWhitespace,
  rulesFieldDenyEvasion,
  rulesCommandAllowsAnything,
  rulesCommandNeverMatches,
  approverDefaultAllow,
  approverReason,
  approverProtectionLifted,
  policyCapabilityUnsupported,
  policyModeUnsupported,
  policyAutoDenyUnsupported,
  policyRetryUnsupported,
  policyMaxRetriesZero,
  policyNegativeTimeoutRetry,
  policyQuestionEndsRun,
  policyUnrestrictedOpen,
  hookDefaultAllow,
  hookUnknownTool,
  hookUnknownInputKey,
  testsFailing,
  lintUnusedSuppression,
  lintInternalError,
  // static analysis rules (analysis-*.ts): entries here
  analysisDeadRule,
  analysisShadowedRule,
  analysisOverlap,
  // agents' own permission files (native-*.ts): entries here
  nativeFileNotLoaded,
  nativeRegexDropped,
  nativeUnknownKey,
  nativeUnknownTool,
  nativeNeverConsulted,
  nativeAllowRunsAnything,
  nativePrefixAlternatives,
  nativeDenyWalkedAround,
  nativeScopeConflict,
] as Rule[]);

export function getRule(id: string): Rule | undefined {
  return allRules.find((r) => r.id === id);
}
