import type { Formatter, FormatterName } from '../types.ts';
import { github } from './github.ts';
import { json } from './json.ts';
import { junit } from './junit.ts';
import { sarif } from './sarif.ts';
import { stylish } from './stylish.ts';

/** Every output format of `verdict lint -f`, as pure functions of the results. */
export const formatters: Readonly<Record<FormatterName, Formatter>> = Object.freeze({ stylish, json, sarif, github, junit });
