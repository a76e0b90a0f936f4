/** The source editor behind `verdict lint --fix`: values written in their own style, and edits refused when they would lose anything. */
import { describe, expect, it } from 'vitest';
import { compileSource } from '../pipeline.ts';
import { applySourceEdits, patternEdit } from './edit.ts';

/** The edit that rewrites the first deny rule's pattern, applied. */
function rewrite(text: string, file: string, pattern: string): string | undefined {
  const r = compileSource(text, file, { stopAfter: 'parse' });
  const span = r.ir!.approver!.deny[0]!.matchSpan!;
  const edit = patternEdit(text, r.syntax!, { start: span.start.offset, end: span.end.offset }, pattern);
  if (edit === undefined) return undefined;
  const applied = applySourceEdits(text, file, r.syntax!, [edit]);
  expect(applied.diagnostics).toEqual([]);
  const again = compileSource(applied.text!, file, { stopAfter: 'parse' });
  expect(again.ir!.approver!.deny[0]!.match).toBe(pattern);
  return applied.text;
}

describe('patternEdit', () => {
  it('keeps the YAML quoting where the value fits it, and only the value changes', () => {
    const y = (m: string) => `mode: pattern # c\ndeny:\n  - {tool: bash, match: ${m}}   # why\n`;
    expect(rewrite(y("'a\\\\s'"), 'p.yaml', 'a\\s')).toBe(y("'a\\s'"));
    expect(rewrite(y('"a\\\\s"'), 'p.yaml', 'a\\.s')).toBe(y('"a\\\\.s"'));
    expect(rewrite(y('a\\\\s'), 'p.yaml', 'a\\s')).toBe(y('a\\s'));
    // A plain value that cannot stay plain in a flow map gets quoted.
    expect(rewrite(y('ab'), 'p.yaml', 'a, b')).toBe(y('"a, b"'));
  });

  it('writes block scalars as block scalars', () => {
    const text = 'mode: pattern\ndeny:\n  - tool: bash\n    match: |\n      ^sudo\n';
    expect(rewrite(text, 'p.yaml', 'sudo\n')).toBe('mode: pattern\ndeny:\n  - tool: bash\n    match: |\n      sudo\n');
  });

  it('leaves an anchored YAML value alone (its aliases would change too)', () => {
    expect(rewrite('mode: pattern\ndeny:\n  - {tool: bash, match: &p "^x"}\n  - {tool: sh, match: *p}\n', 'p.yaml', 'x')).toBeUndefined();
  });

  it('JSON stays JSON; .verdict literals stay literals, or become `match "…"`', () => {
    expect(rewrite('{"mode":"pattern","deny":[{"tool":"bash","match":"^a\\/b"}]}', 'p.json', 'a/b')).toBe('{"mode":"pattern","deny":[{"tool":"bash","match":"a/b"}]}');
    expect(rewrite('approver pattern {\n  deny bash /^a\\/b/ # c\n}\n', 'p.verdict', 'a/b')).toBe('approver pattern {\n  deny bash /a\\/b/ # c\n}\n');
    expect(rewrite('approver pattern {\n  deny bash /^a/\n}\n', 'p.verdict', 'a\u0001')).toBe('approver pattern {\n  deny bash match "a\\u0001"\n}\n');
  });
});

describe('applySourceEdits', () => {
  const text = '# top\nmode: pattern\ndeny:\n  - {tool: bash, match: "x"} # keep\n';
  const at = (s: string) => text.indexOf(s);

  it('refuses an edit that changes another value, a comment, or the file\'s loading', () => {
    const tool = applySourceEdits(text, 'p.yaml', 'yaml', [{ range: [at('bash'), at('bash') + 4], text: 'sh' }]);
    expect(tool.text).toBeUndefined();
    expect(tool.diagnostics.map((d) => [d.code, d.message])).toEqual([['fix/lossy', 'the fixes were not applied: a value other than the fixed patterns would change']]);
    const comment = applySourceEdits(text, 'p.yaml', 'yaml', [{ range: [at('keep'), at('keep') + 4], text: 'gone' }]);
    expect(comment.diagnostics[0]?.message).toBe('the fixes were not applied: a comment, anchor, tag or document marker would change');
    const broken = applySourceEdits(text, 'p.yaml', 'yaml', [{ range: [at('"x"'), at('"x"') + 3], text: '"x' }]);
    expect(broken.diagnostics[0]?.message).toBe('the fixes were not applied: the fixed file would not load');
  });

  it('leaves a file that does not load as it is, without a word (its errors are reported already)', () => {
    const broken = 'mode: pattern\ndeny:\n  - {tool: bash, match: *nope}\n  - {tool: bash, match: "^x"}\n';
    const at = broken.indexOf('"^x"') + 1;
    expect(applySourceEdits(broken, 'p.yaml', 'yaml', [{ range: [at, at + 1], text: '' }])).toEqual({ applied: [], diagnostics: [] });
  });

  it('takes overlapping edits one at a time, and the same edit once', () => {
    const x = at('"x"') + 1;
    const r = applySourceEdits(text, 'p.yaml', 'yaml', [
      { range: [x, x + 1], text: 'y' },
      { range: [x, x + 1], text: 'y' },
      { range: [x, x + 1], text: 'z' },
    ]);
    expect(r.applied).toEqual([{ range: [x, x + 1], text: 'y' }]);
    expect(r.text).toBe(text.replace('"x"', '"y"'));
  });

  it('refuses a .verdict edit that changes anything but a pattern', () => {
    const v = 'approver pattern {\n  deny bash /x/ # c\n}\n';
    expect(applySourceEdits(v, 'p.verdict', 'verdict', [{ range: [v.indexOf('bash'), v.indexOf('bash') + 4], text: 'sh' }]).text).toBeUndefined();
    expect(applySourceEdits(v, 'p.verdict', 'verdict', [{ range: [v.indexOf('/x/') + 1, v.indexOf('/x/') + 2], text: 'y' }]).text).toBe(v.replace('/x/', '/y/'));
  });
});
