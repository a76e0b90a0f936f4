/**
 * The command a regex rule on a shell tool is about, read from its pattern's syntax tree, and the
 * command rule that says it: what `rules/prefer-command-rule` reports and `rules/shell-injection`
 * suggests.
 */
import { intersect, parsedRegex, type CharSet, type RegexCache, type RegexNode } from '@verdict/analysis';
import { ruleText } from '@verdict/compiler';
import { caseFold, isCommandRule, shellToolsOf } from '@verdict/engine';
import type { ApproverIR, RuleIR, RuleList } from '@verdict/engine';
import { stringify } from 'yaml';

/** A word of a command rule: one word, or a list of alternatives. */
export type CommandWord = string | readonly string[];

/** Characters a command word is made of here: `[A-Za-z0-9._/@+:=-]`, as sorted ranges. */
const WORD: CharSet = [0x2b, 0x2b, 0x2d, 0x3a, 0x3d, 0x3d, 0x40, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** The whitespace that can separate two words in a pattern (`\s` is `[\t\n\f\r ]`). */
const SPACES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);

/**
 * The command words of a regex rule (`match`, no `command`) whose tool is a shell tool of the
 * approver (its `shell:` table, else the defaults; names case-folded as the engine folds them),
 * with the JSON key its pattern reads the text under; undefined when the rule is no such rule or
 * its words cannot be read exactly. An allow may be replaced by a narrower rule, a deny or ask
 * only by one as wide: a last word the pattern runs on from (`git status.*`) ends the words of an
 * allow only.
 */
export function regexCommand(
  regexes: RegexCache,
  rule: RuleIR,
  list: RuleList,
  approver: ApproverIR,
): { words: CommandWord[]; key: string } | undefined {
  if (isCommandRule(rule) || rule.tool === '' || !regexes.get(rule.match).ok) return undefined;
  const tool = caseFold(rule.tool);
  const shell = shellToolsOf(approver).find((s) => caseFold(s.tool) === tool);
  if (shell === undefined) return undefined;
  if (rule.field !== undefined && caseFold(rule.field) !== caseFold(shell.field)) return undefined;
  return commandWords(rule.match, { isField: rule.field !== undefined, field: shell.field, runOn: list === 'allow' }) ?? undefined;
}

/** The command rule to write, in the file's own syntax: a list entry (YAML flow, JSON) or a DSL rule line. */
export function commandRuleText(syntax: 'yaml' | 'json' | 'verdict' | undefined, list: RuleList, tool: string, words: readonly CommandWord[]): string {
  const command = words.map((w) => (typeof w === 'string' ? w : [...w]));
  if (syntax === 'verdict') return ruleText(list, { tool, match: '', command });
  if (syntax === 'json') {
    const array = (ws: readonly (string | readonly string[])[]): string => `[${ws.map((w) => (typeof w === 'string' ? JSON.stringify(w) : array(w))).join(', ')}]`;
    return `{"tool": ${JSON.stringify(tool)}, "command": ${array(command)}}`;
  }
  return stringify({ tool, command }, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();
}

// ---- the words of a pattern ----------------------------------------------------------------------

/**
 * The command words a pattern is about, read from its syntax tree (`@verdict/analysis`): after a
 * leading `"command":"` (the shell tool's field as a JSON key, `\s*` around the colon, `^` and `\{`
 * before it) or, for a `field` rule, at the start of the value; or, in a pattern anchored nowhere,
 * two words or more, the first in lower case. Words are literal runs of `[A-Za-z0-9._/@+:=-]` or groups of alternatives of
 * them, separated by spaces (` `, `\s`, ` +`, `\s+`); what follows the last word must leave the rest
 * of the command open (nothing, `.*`, optional items, assertions, the closing `"`). With `runOn`,
 * the last word may be one the pattern goes on from (`status` in `git status.*`). `null` when the
 * words cannot be recovered exactly. `key` is the JSON key the pattern expects the text under.
 */
export function commandWords(
  pattern: string,
  { isField, field, runOn }: { isField: boolean; field: string; runOn: boolean },
): { words: CommandWord[]; key: string } | null {
  const root = parsedRegex(pattern);
  if (root === null || root.t === 'alt') return null;
  const items = flatten(root);
  let i = 0;
  let key = field;
  let keyed = isField;
  if (isField) {
    while (isAssert(items[i], 'bot')) i++;
  } else {
    let anchored = false;
    if (isAssert(items[i], 'bot')) {
      i++;
      anchored = true;
    }
    if (literalOf(items[i]) === '{') {
      i++;
      anchored = true;
      while (isOptionalSpace(items[i])) i++;
    }
    const prefix = keyPrefix(items, i);
    if (prefix !== null && caseFold(prefix.key) === caseFold(field)) {
      i = prefix.end;
      key = prefix.key;
      keyed = true;
    } else if (anchored) {
      return null;
    } else {
      while (isAssert(items[i], 'wb')) i++;
    }
  }
  const words: CommandWord[] = [];
  for (;;) {
    const read = wordAt(items, i);
    if (read === null) break;
    // A word must end where the pattern's next item cannot go on with a word character.
    if (!runOn && canStartWithWord(items, read.end)) break;
    words.push(read.word);
    i = read.end;
    if (!isSeparator(items[i]) || wordAt(items, i + 1) === null) break;
    i++;
  }
  const first = words[0];
  if (first === undefined || (!keyed && words.length < 2)) return null;
  const programs = typeof first === 'string' ? [first] : first;
  if (!programs.every((p) => /^[A-Za-z0-9_./]/.test(p) && !p.includes('='))) return null;
  // Text anywhere is read as a command only when it looks like one: a program is written in lower
  // case (`rm -rf`, `git push`), prose and SQL often are not (`DROP TABLE`, `BEGIN RSA PRIVATE KEY`).
  if (!keyed && !programs.every((p) => p === p.toLowerCase())) return null;
  return openRest(items, i, keyed && !isField) ? { words, key } : null;
}

/** A branch's items with groups that hold no alternation read in place. */
function flatten(node: RegexNode): RegexNode[] {
  if (node.t !== 'cat') return [node];
  return node.subs.flatMap((s) => (s.t === 'cat' ? flatten(s) : [s]));
}

function isAssert(node: RegexNode | undefined, kind: 'bot' | 'wb'): boolean {
  return node?.t === 'assert' && node.kind === kind;
}

/** The one character a literal item matches (no case folding), or undefined. */
function literalOf(node: RegexNode | undefined): string | undefined {
  if (node?.t !== 'chars' || node.form !== 'literal' || node.lit === undefined) return undefined;
  const s = node.set;
  return s.length === 2 && s[0] === node.lit && s[1] === node.lit ? String.fromCodePoint(node.lit) : undefined;
}

function isWordChar(c: string | undefined): c is string {
  return c !== undefined && /^[A-Za-z0-9._/@+:=-]$/.test(c);
}

function onlySpaces(set: CharSet): boolean {
  if (set.length === 0) return false;
  for (let k = 0; k < set.length; k += 2) {
    for (let cp = set[k] as number; cp <= (set[k + 1] as number); cp++) if (!SPACES.has(cp)) return false;
  }
  return true;
}

function spaceSet(node: RegexNode | undefined): boolean {
  return node?.t === 'chars' && onlySpaces(node.set);
}

/** ` `, `\s`, ` +`, `\s+`: at least one whitespace character, and nothing else. */
function isSeparator(node: RegexNode | undefined): boolean {
  if (node === undefined) return false;
  const one = node.t === 'rep' && node.min >= 1 ? node.sub : node;
  return spaceSet(one) && hasSpace(one);
}

function hasSpace(node: RegexNode): boolean {
  if (node.t !== 'chars') return false;
  const s = node.set;
  for (let k = 0; k < s.length; k += 2) if ((s[k] as number) <= 0x20 && 0x20 <= (s[k + 1] as number)) return true;
  return false;
}

/** ` `, `\s*`, ` ?`: whitespace JSON may have between tokens. */
function isOptionalSpace(node: RegexNode | undefined): boolean {
  return node?.t === 'rep' ? spaceSet(node.sub) : spaceSet(node);
}

/** `"KEY"\s*:\s*"` at `i`: the key and the index after the prefix. */
function keyPrefix(items: readonly RegexNode[], i: number): { key: string; end: number } | null {
  if (literalOf(items[i]) !== '"') return null;
  let j = i + 1;
  let key = '';
  for (let c = literalOf(items[j]); c !== undefined && c !== '"' && c !== '\\'; c = literalOf(items[++j])) key += c;
  if (key === '' || literalOf(items[j]) !== '"') return null;
  j++;
  while (isOptionalSpace(items[j])) j++;
  if (literalOf(items[j]) !== ':') return null;
  j++;
  while (isOptionalSpace(items[j])) j++;
  if (literalOf(items[j]) !== '"') return null;
  return { key, end: j + 1 };
}

/** A literal word (a run of word characters) or a group of alternative literal words at `i`. */
function wordAt(items: readonly RegexNode[], i: number): { word: CommandWord; end: number } | null {
  const node = items[i];
  if (node?.t === 'alt') {
    const alternatives: string[] = [];
    for (const branch of node.subs) {
      const parts = flatten(branch).map(literalOf);
      if (parts.length === 0 || !parts.every(isWordChar)) return null;
      alternatives.push(parts.join(''));
    }
    return { word: [...new Set(alternatives)], end: i + 1 };
  }
  let j = i;
  let word = '';
  for (let c = literalOf(items[j]); isWordChar(c); c = literalOf(items[++j])) word += c;
  return word === '' ? null : { word, end: j };
}

/** Whether the items from `i` can match a word character first (a word cut there would be a prefix of a longer one). */
function canStartWithWord(items: readonly RegexNode[], i: number): boolean {
  for (let j = i; j < items.length; j++) {
    const r = startsWithWord(items[j] as RegexNode);
    if (r !== 'empty') return r;
  }
  return false;
}

/** `true`/`false`: whether the node's first character can be a word character; `'empty'`: it can match nothing at all. */
function startsWithWord(node: RegexNode): boolean | 'empty' {
  switch (node.t) {
    case 'chars':
      return intersect(node.set, WORD).length > 0;
    case 'assert':
      return 'empty';
    case 'rep': {
      if (node.max === 0) return 'empty';
      const r = startsWithWord(node.sub);
      return r === true ? true : node.min === 0 ? 'empty' : r;
    }
    case 'cat': {
      for (const s of node.subs) {
        const r = startsWithWord(s);
        if (r !== 'empty') return r;
      }
      return 'empty';
    }
    case 'alt': {
      let all: boolean | 'empty' = false;
      for (const s of node.subs) {
        const r = startsWithWord(s);
        if (r === true) return true;
        if (r === 'empty') all = 'empty';
      }
      // A branch that can match nothing lets the following items decide: the caller goes on.
      return all;
    }
  }
}

/**
 * Whether what follows the words leaves the rest of the command open: optional items, `.`-like
 * or whitespace repetitions, assertions; in JSON text, anything after the closing `"` of the value.
 */
function openRest(items: readonly RegexNode[], i: number, json: boolean): boolean {
  for (let j = i; j < items.length; j++) {
    const node = items[j] as RegexNode;
    if (json && literalOf(node) === '"') return true;
    if (node.t === 'assert' || (node.t === 'rep' && node.min === 0)) continue;
    const one = node.t === 'rep' ? node.sub : node;
    if (one.t === 'chars' && (one.form === 'dot' || onlySpaces(one.set))) continue;
    return false;
  }
  return true;
}
