/**
 * "Did you mean" suggestions: the engine's (the CLI uses them on start-up, before any policy
 * loads, so they live below the compiler), re-exported for the compiler's stages.
 */
export { didYouMean, didYouMeanHelp, editDistance, isNearMiss, normalizeWord } from '@verdict/engine';
