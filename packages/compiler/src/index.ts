// @verdict/compiler: explicit named exports only.

// pipeline (YAML / JSON front end, stages, results)
export type { CompileOptions, CompileResult, StageId, Syntax } from './types.ts';
export type { JMap, JMapEntry, JNode, JScalar, JScalarNode, JSeq, ScalarStyle } from './tree.ts';
export { STAGE_IDS } from './types.ts';
export { compileFile, compileSource, STAGES } from './pipeline.ts';
export type { Stage } from './pipeline.ts';
export { GO_TEXT_CODES, goMessage, isBlocking, NON_BLOCKING_CODES } from './validate.ts';
export { lowerPolicy } from './lower.ts';
export type { CheckOptions, DriverCheck, PolicyCheck } from './check.ts';
export { checkPolicyFile } from './check.ts';
export type { LoadedDescriptor } from './descriptor.ts';
export { loadDescriptorFile, parseDescriptorSource } from './descriptor.ts';
export { schemas, writeSchemaFiles } from './schemas.ts';
export type { LoadedText } from './load.ts';
export { checkText, MAX_SOURCE_BYTES, nameFromBytes, readSourceFile, readSourceStream } from './load.ts';
export { didYouMean, didYouMeanHelp, editDistance } from './did-you-mean.ts';
export { parseTree } from './parse.ts';

// positions (shared by every front end)
export type { SourceEntry } from './positions.ts';
export {
  jsonPointer,
  joinSpans,
  LineIndex,
  pathFromJsonPointer,
  SourceMap,
  spanFromChevrotain,
  spanFromYamlRange,
  spanOf,
} from './positions.ts';

// the `.verdict` DSL and the printers (YAML ↔ DSL)
export type { VerdictParseResult } from './dsl/index.ts';
export { MAX_NESTING as DSL_MAX_NESTING, MAX_SOURCE_LENGTH as DSL_MAX_SOURCE_LENGTH, parseVerdictSource } from './dsl/index.ts';
export type { FormatResult, PrintVerdictOptions, SourceComment } from './print/index.ts';
export { applySourceEdits, conversionLosses, formatPolicySource, formatVerdictSource, patternEdit, printVerdict, printYaml, ruleText, SourceEditor } from './print/index.ts';
export type { EditResult, SourceEdit } from './print/index.ts';

// finding files: the folder walker, globs and ignore files shared by lint, test and fmt
export type { FindFilesOptions, FoundFile, FoundFiles, SkippedPath } from './files/walk.ts';
export { DEFAULT_SKIPPED_FOLDERS, displayPath, findFiles } from './files/walk.ts';
export type { GlobOptions, GlobResult, PathGlob } from './files/glob.ts';
export { compileGlob, isGlob } from './files/glob.ts';
export { carriesVerdictSchema, CONFIG_FILE_NAMES, hasPolicyName, POLICY_EXTENSIONS } from './files/policy-files.ts';
export { DEFAULT_PROJECT, PROJECT_PLACEHOLDER, quoteMeta, substituteProject } from './project.ts';
