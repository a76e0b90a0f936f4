/**
 * @verdict/analysis: one model of Go regular expressions for Verdict's rule sets, and what is
 * proved with it. Explicit named exports only.
 *
 * - The model: `parseRegex` (Go's `regexp/syntax` with `syntax.Perl` flags, into a tree with source
 *   offsets, `syntax.ts`), `CharSet` (sorted code point ranges, `charset.ts`) with the Unicode,
 *   Perl and POSIX classes once (`unicode.ts`; case folding read from the engine), NFAs and lazy
 *   search DFAs over code points (`automaton.ts`: exact for `^ $ \A \z (?m) \b \B`), and the exact
 *   witness search over boolean formulas of DFAs (`search.ts`).
 * - The judge: every witness is confirmed by the engine's `ruleMatches` or a compiled approver
 *   (`oracle.ts`); a limit turns into "unknown", never into a verdict.
 * - `analyzeApprover(ir, options?)`: dead rules, rules shadowed by the rules that win over them,
 *   overlaps, each with an engine-confirmed witness call or `unknown` with a reason.
 * - `diffPolicies(oldIr, newIr, options?)`: calls one approver decides differently from the other,
 *   both ways, and a verdict (`stricter`, `looser`, `equivalent`, `neither`, `unknown`); with the
 *   `commandJudge` option, policies with command rules on shell tools too (`command-side.ts`).
 * - For lint's pattern rules: the shape of a pattern (`pattern-text.ts`: branches, atoms, flags),
 *   JSON object inputs a rule matches (`witness.ts`), RE2-rejected Perl constructs
 *   (`re2-unsupported.ts`), one regex compilation per pattern and run (`RegexCache`).
 *
 * Layering: this package imports the engine only (never the compiler, lint, testing or the CLI).
 */
export { analyzeApprover } from './analyze.ts';
export type { AnalysisFinding, AnalysisQuestion, RuleLocation, Witness } from './analyze.ts';
export { diffPolicies } from './diff.ts';
export { policyExampleCommands } from './command-side.ts';
export type { DecisionSummary, DiffChange, DiffVerdict, DiffWitness, PolicyDiff } from './diff.ts';
export { unnamedTool } from './session.ts';
export type { AnalysisOptions } from './session.ts';

export { parsedRegex, parseRegex, UnsupportedPattern } from './syntax.ts';
export type { AssertKind, RegexNode, SourceSpan } from './syntax.ts';
export { has, intersect } from './charset.ts';
export type { CharSet } from './charset.ts';
export { makeBudget } from './automaton.ts';
export type { SearchDfa } from './automaton.ts';
export { and, atom, findWitness } from './search.ts';
export type { Formula, SearchResult } from './search.ts';
export { LanguageCache } from './model.ts';

export { ruleMatchesInput } from './oracle.ts';
export { RegexCache } from './regex-cache.ts';
export type { RegexResult } from './regex-cache.ts';
export { findInputWitness, stringKeys } from './witness.ts';
export type { InputWitness } from './witness.ts';
export { canBeginWith, patternBranches, sample } from './pattern-text.ts';
export type { Atom, Branch } from './pattern-text.ts';
export { unsupportedConstruct } from './re2-unsupported.ts';
export type { UnsupportedConstruct, UnsupportedKind } from './re2-unsupported.ts';
