export { printVerdict, ruleText, testText } from './verdict.ts';
export type { PrintVerdictOptions, SourceComment } from './verdict.ts';
export { printYaml } from './yaml.ts';
export { conversionLosses, formatPolicySource, formatVerdictSource } from './format.ts';
export type { FormatResult } from './format.ts';
export { applySourceEdits, patternEdit, SourceEditor } from './edit.ts';
export type { EditResult, SourceEdit } from './edit.ts';
