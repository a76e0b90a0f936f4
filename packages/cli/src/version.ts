/** The version of the `verdict` command, from its package.json (one place: `--version`, SARIF's tool version). */
// Imported, not read at run time: the bundle in dist/ carries it, wherever its chunks sit.
import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
