/** Resource limits of the `.verdict` front end; a file past one gets a diagnostic, never a crash. */

/** Larger files are refused: no policy comes near this (the largest fixture is a few KB), and parse time grows with size. */
export const MAX_SOURCE_LENGTH = 1024 * 1024;
/** Deeper nesting of `{`/`[` is refused (JSON test inputs are the only place it can grow). */
export const MAX_NESTING = 64;
