/** `@verdict/shell`'s reading of what a shell text writes, kept apart so that only shell calls load the parser. */
export { shellWrites } from '@verdict/shell';
