/** Resource limits of the `.verdict` front end; a file past one gets a diagnostic, never a crash. */

/** Larger files are refused: no policy is this big, and parse time and memory grow with size. */
export const MAX_SOURCE_LENGTH = 4 * 1024 * 1024;
/** Deeper nesting of `{`/`[` is refused (JSON test inputs are the only place it can grow). */
export const MAX_NESTING = 64;
