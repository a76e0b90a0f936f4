export { absolutePath, isWithin, normalizePath } from './paths.ts';
export { PROTECTION_NAMES, PROTECTIONS, protectedWrite, writtenPaths } from './protect.ts';
export type { Protection, ProtectionName, ProtectContext, ProtectHit, ProtectRequest, ShellWriteList } from './protect.ts';
