import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSource, DSL_MAX_SOURCE_LENGTH, parseVerdictSource } from '../../src/index.ts';
import { verdictLexer, Identifier, keywordTokens } from '../../src/dsl/tokens.ts';
import { at, positionsValid, stripIR } from './helpers.ts';

const FULL = `# A full policy
driver claude
policy {
  preset read_only
  web_search deny
  approvals {
    permission auto_approve
    timeout 30s
    max_retries 3
  }
}
approver pattern default deny reason "denied — reads only" input canonical {
  allow read /.*/
  allow bash field command /git (status|diff)/
  deny write /"path":"\\/etc\\//
  deny * match "a\\\\/b"
  allow mcp__github__get-issue
}
test "rm is denied" { deny bash {"command": "rm -rf /"} reason "denied — reads only" rule deny[0] }
test { allow bash "not json" rule default }
test { allow read }
`;

describe('parseVerdictSource: a valid file', () => {
  const result = parseVerdictSource(FULL, 'p.verdict');

  it('lowers to the IR a YAML file would give', () => {
    expect(result.diagnostics).toEqual([]);
    expect(stripIR(result.ir)).toEqual({
      driver: { ref: 'claude' },
      policy: {
        sandbox: { value: 'read_only' },
        webSearch: { value: 'deny' },
        approvals: { permission: { value: 'auto_approve' }, timeout: { value: '30s' }, maxRetries: { value: 3 } },
      },
      approver: {
        mode: 'pattern',
        default: 'deny',
        reason: 'denied — reads only',
        input: 'canonical',
        allow: [
          { tool: 'read', match: '.*' },
          { tool: 'bash', match: 'git (status|diff)', field: 'command' },
          { tool: 'mcp__github__get-issue', match: '' },
        ],
        deny: [
          { tool: 'write', match: '"path":"/etc/' },
          { tool: '', match: 'a\\/b' },
        ],
      },
      tests: [
        { name: 'rm is denied', tool: 'bash', input: '{"command": "rm -rf /"}', expect: 'deny', reason: 'denied — reads only', rule: 'deny[0]' },
        { tool: 'bash', input: 'not json', expect: 'allow', rule: 'default' },
        { tool: 'read', input: '{}', expect: 'allow' },
      ],
    });
    expect(result.ir!.approverPlacement).toBe('approver');
  });

  it('keeps spans: a regex literal spans the pattern inside the slashes', () => {
    const ir = result.ir!;
    const deny0 = ir.approver!.deny[0]!;
    // line 15: `  deny write /"path":"\/etc\//`
    expect(deny0.matchSpan && at({ code: '', severity: 'error', message: '', span: deny0.matchSpan })).toBe('15:15-15:30');
    expect(FULL.slice(deny0.matchSpan!.start.offset, deny0.matchSpan!.end.offset)).toBe('"path":"\\/etc\\/');
    expect(deny0.span!.start).toMatchObject({ line: 15, column: 3 });
    expect(deny0.toolSpan!.start).toMatchObject({ line: 15, column: 8 });
    const allow1 = ir.approver!.allow[1]!;
    expect(FULL.slice(allow1.fieldSpan!.start.offset, allow1.fieldSpan!.end.offset)).toBe('command');
    const deny1 = ir.approver!.deny[1]!;
    expect(FULL.slice(deny1.matchSpan!.start.offset, deny1.matchSpan!.end.offset)).toBe('a\\\\/b');
    expect(ir.approver!.modeSpan!.start).toMatchObject({ line: 12, column: 10 });
    expect(ir.policy!.approvals!.maxRetries!.span!.start).toMatchObject({ line: 9, column: 17 });
    expect(ir.tests[0]!.span!.start).toMatchObject({ line: 19, column: 1 });
    expect(ir.tests[0]!.span!.end).toMatchObject({ line: 19, column: 100 });
  });

  it('compiles end to end through compileSource', () => {
    const r = compileSource(FULL, 'p.verdict');
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.approver).toBeDefined();
  });
});

describe('the lexer', () => {
  it('never splits an identifier that starts with a keyword', () => {
    const words = [...keywordTokens.keys()];
    fc.assert(
      fc.property(fc.constantFrom(...words), fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/), (kw, suffix) => {
        const { tokens, errors } = verdictLexer.tokenize(kw + suffix);
        expect(errors).toEqual([]);
        expect(tokens).toHaveLength(1);
        expect(tokens[0]!.tokenType).toBe(Identifier);
        expect(tokens[0]!.image).toBe(kw + suffix);
      }),
    );
  });

  it('reads `allowed`, `denylist`, `testing`, `policyx` as tool names', () => {
    const r = parseVerdictSource('approver pattern {\n  allow allowed\n  deny denylist /x/\n  allow testing field policyx\n}\n', 'k.verdict');
    expect(r.diagnostics).toEqual([]);
    expect(r.ir!.approver!.allow.map((x) => [x.tool, x.field])).toEqual([
      ['allowed', undefined],
      ['testing', 'policyx'],
    ]);
    expect(r.ir!.approver!.deny[0]!.tool).toBe('denylist');
  });
});

describe('error recovery', () => {
  it('reports five mistakes in one run, each located, with "did you mean"', () => {
    const text = 'driver claude\naprover pattern default deny {\n  alow bash /ls/\n  deny /rm/\n  allow read field /x/\n}\ntest "x" { deny bash {"a": } }\n';
    const r = parseVerdictSource(text, 'five.verdict');
    expect(r.ir).toBeUndefined();
    expect(r.diagnostics.map((d) => [at(d), d.message, d.help])).toEqual([
      ['2:1-2:8', 'unknown keyword `aprover`', 'did you mean `approver`?'],
      ['3:3-3:7', 'unknown keyword `alow`', 'did you mean `allow`?'],
      ['4:8-4:12', 'expected a tool name after `deny`', undefined],
      ['5:20-5:23', 'expected a field name after `field`', undefined],
      ['7:28-7:29', 'expected a JSON value after `:`', undefined],
    ]);
  });

  it('reports a misplaced `:` (YAML habits) without giving up on the rest', () => {
    const r = parseVerdictSource('policy {\n  sandbox: read_only\n}\napprover pattern {\n  allow bash: /x/\n  deny bash /y/\n}\n', 'c.verdict');
    expect(r.diagnostics.map((d) => [at(d), d.code, d.message])).toEqual([
      ['2:10-2:11', 'dsl/colon', 'a `.verdict` setting takes no `:`'],
      ['5:13-5:14', 'dsl/syntax', 'expected a rule (`allow …`, `deny …` or `ask …`) or `}`'],
    ]);
  });
});

describe('bad input: diagnostics, never a throw or a hang', () => {
  const check = (text: string): ReturnType<typeof parseVerdictSource> => {
    const r = parseVerdictSource(text, 'bad.verdict');
    expect(positionsValid(text, r.diagnostics)).toBe(true);
    return r;
  };

  it('an empty file is an empty policy', () => {
    const r = check('');
    expect(r.diagnostics).toEqual([]);
    expect(r.ir).toEqual({ file: 'bad.verdict', tests: [] });
  });

  it('a file of NUL bytes: one diagnostic at 1:1', () => {
    const r = check('\0'.repeat(4096));
    expect(r.diagnostics.map((d) => [at(d), d.code, d.message])).toEqual([['1:1-1:2', 'dsl/unexpected-character', 'unexpected character U+0000']]);
  });

  it('an unterminated regex at the end of the file', () => {
    const r = check('approver pattern {\n  allow bash /abc');
    expect(r.diagnostics.map((d) => [at(d), d.code])).toEqual([
      ['2:14-2:18', 'dsl/unterminated-regex'],
      ['2:18-2:18', 'dsl/syntax'],
    ]);
  });

  it('an unterminated string at the end of the file', () => {
    const r = check('approver pattern reason "abc');
    expect(r.diagnostics.map((d) => [at(d), d.code, d.message])).toEqual([['1:25-1:29', 'dsl/unterminated-string', 'unterminated string']]);
  });

  it('10,000 nested braces, at the top and inside a JSON input', () => {
    expect(check('{'.repeat(10_000)).diagnostics.map((d) => [at(d), d.code])).toEqual([['1:65-1:66', 'dsl/too-deep']]);
    const json = check('test "deep" { deny bash ' + '['.repeat(10_000) + ']'.repeat(10_000) + ' }');
    expect(json.diagnostics.map((d) => d.code)).toEqual(['dsl/too-deep']);
    // 60 levels are fine.
    const ok = check('test "deep" { deny bash ' + '['.repeat(60) + ']'.repeat(60) + ' }');
    expect(ok.diagnostics).toEqual([]);
    expect(ok.ir!.tests[0]!.input).toBe('['.repeat(60) + ']'.repeat(60));
  });

  it('a 20 MB file is refused at once', () => {
    const text = 'approver pattern {\n' + '  allow bash /x/\n'.repeat(Math.ceil((20 * 1024 * 1024) / 16));
    const r = check(text);
    expect(r.diagnostics.map((d) => [at(d), d.code])).toEqual([['1:1-1:1', 'dsl/too-large']]);
    expect(text.length).toBeGreaterThan(DSL_MAX_SOURCE_LENGTH);
  });

  it('a file just under the limit parses', () => {
    const line = '  allow bash field command /git (status|diff) --[a-z]+/\n';
    const text = 'approver pattern {\n' + line.repeat(Math.floor(DSL_MAX_SOURCE_LENGTH / 8 / line.length)) + '}\n';
    const r = check(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.ir!.approver!.allow.length).toBeGreaterThan(2000);
  });

  it('junk of every token kind', () => {
    const r = check('} } ] [ , : * 12 3s "x" /y/ allow deny field match rule input reason default ' .repeat(200));
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.ir).toBeUndefined();
  });

  it('a regex RE2 rejects is located at the pattern, with Go\'s message', () => {
    const text = 'approver pattern default deny {\n  allow bash /a\\/(b/\n  deny * match "x++"\n}\n';
    const r = compileSource(text, 're.verdict');
    const errs = r.diagnostics.filter((d) => d.code === 'regex/invalid');
    expect(errs.map((d) => at(d))).toEqual(['2:15-2:20', '3:17-3:20']);
    expect(errs[0]!.help).toContain('error parsing regexp: missing closing ): `a/(b`');
    expect(errs[1]!.help).toContain('error parsing regexp: invalid nested repetition operator: `++`');
    expect(text.slice(errs[0]!.span!.start.offset, errs[0]!.span!.end.offset)).toBe('a\\/(b');
  });
});

describe('the approver header: `environment` and `shells`', () => {
  const head = (clauses: string) => `approver pattern default deny ${clauses} {\n  allow Bash command ["ls"]\n}\n`;

  it('lowers to the IR the YAML keys give', () => {
    const r = parseVerdictSource(head('environment ["FOO_LEVEL", "BAR"] shells ["bash", "zsh"]'), 'p.verdict');
    expect(r.diagnostics).toEqual([]);
    expect(r.ir?.approver?.environment).toEqual(['FOO_LEVEL', 'BAR']);
    expect(r.ir?.approver?.shells).toEqual(['bash', 'zsh']);
    const y = compileSource('approver:\n  mode: pattern\n  default: deny\n  environment: [FOO_LEVEL, BAR]\n  shells: [bash, zsh]\n  allow:\n    - {tool: Bash, command: [ls]}\n', 'p.yaml');
    expect((stripIR(y.ir) as { approver?: unknown } | undefined)?.approver).toEqual((stripIR(r.ir) as { approver?: unknown } | undefined)?.approver);
  });

  it('says where a value is not a list of names, or names no shell it knows', () => {
    const bad = parseVerdictSource(head('shells "bash"'), 'p.verdict');
    expect(bad.diagnostics.map((d) => [at(d), d.code])).toEqual([['1:38-1:44', 'dsl/expected-names']]);
    expect(parseVerdictSource(head('environment [1]'), 'p.verdict').diagnostics.map((d) => d.code)).toEqual(['dsl/expected-names']);
    expect(parseVerdictSource(head('shells ["bash"] shells ["zsh"]'), 'p.verdict').diagnostics.map((d) => d.code)).toHaveLength(1);
  });
});
