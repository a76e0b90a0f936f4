/**
 * One compilation per pattern for a whole lint run, shared by every rule and file: rules ask the
 * cache instead of compiling, so adding a rule never multiplies regex compilations.
 */
import { compileRegex } from '@verdict/engine';

export type RegexResult = ReturnType<typeof compileRegex>;

export class RegexCache {
  private readonly cache = new Map<string, RegexResult>();
  /** How many distinct patterns were compiled (tests check the cache works). */
  compilations = 0;

  get(pattern: string): RegexResult {
    let r = this.cache.get(pattern);
    if (r === undefined) {
      this.compilations++;
      r = compileRegex(pattern);
      this.cache.set(pattern, r);
    }
    return r;
  }

  /** The pattern a `field` rule runs: anchored at both ends (semantics.md A4.3). */
  field(pattern: string): RegexResult {
    return this.get(`^(?:${pattern})$`);
  }
}
