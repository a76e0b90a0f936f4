/**
 * YAML and JSON policies never load the `.verdict` DSL's parser library: importing the compiler
 * and compiling, validating or printing them leaves chevrotain unloaded (it costs seconds at
 * start-up under tsx); the first `.verdict` file loads it. The tests in this file run in order.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chevrotainLoaded } from '../src/dsl/chevrotain.ts';
import { compileFile, compileSource, parseVerdictSource, printVerdict, printYaml } from '../src/index.ts';

const POLICIES = fileURLToPath(new URL('../../../fixtures/policies/', import.meta.url));

const YAML = `approver:
  mode: pattern
  default: deny
  reason: reads only
  allow:
    - {tool: read, match: ".*"}
    - {tool: bash, field: command, match: "git (status|diff)"}
  deny:
    - {tool: bash, match: "rm\\\\s+-rf"}
tests:
  - {tool: bash, input: {command: "rm -rf /"}, expect: deny}
`;

describe('the .verdict DSL loads on demand', () => {
  it('YAML and JSON files compile, and print as .verdict text, without loading chevrotain', () => {
    expect(chevrotainLoaded()).toBe(false);

    const y = compileSource(YAML, 'p.yaml');
    expect(y.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(y.approver).toBeDefined();
    const j = compileSource(JSON.stringify({ approver: { mode: 'pattern', default: 'deny', reason: 'x', allow: [{ tool: 'read', match: 'x' }] } }), 'p.json');
    expect(j.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(j.approver).toBeDefined();
    for (const name of ['workspace.yaml', 'unattended.json', 'agent-config.yaml']) {
      const r = compileFile(POLICIES + name);
      expect(r.diagnostics.filter((d) => d.severity === 'error'), name).toEqual([]);
      expect(r.stoppedAfter, name).toBe('compile');
    }
    // A mistake in a YAML file is still reported, without the DSL.
    expect(compileSource('approver: {mode: pattern, default: maybe}\n', 'bad.yaml').diagnostics.some((d) => d.severity === 'error')).toBe(true);
    // Converting to the DSL's text asks only which words are keywords.
    const text = printVerdict(y.ir!);
    expect(text).toContain('allow bash field command /git (status|diff)/');
    expect(printYaml(y.ir!)).toContain('git (status|diff)');

    expect(chevrotainLoaded()).toBe(false);
  });

  it('the first .verdict file loads it, and reads back what was printed', () => {
    const y = compileSource(YAML, 'p.yaml');
    const back = parseVerdictSource(printVerdict(y.ir!), 'p.verdict');
    expect(chevrotainLoaded()).toBe(true);
    expect(back.diagnostics).toEqual([]);
    expect(back.ir!.approver!.allow.map((r) => [r.tool, r.field, r.match])).toEqual([
      ['read', undefined, '.*'],
      ['bash', 'command', 'git (status|diff)'],
    ]);
    expect(back.ir!.approver!.deny.map((r) => r.match)).toEqual(['rm\\s+-rf']);
    const v = compileFile(POLICIES + 'workspace.verdict');
    expect(v.syntax).toBe('verdict');
    expect(v.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a syntax error in a .verdict file is still located', () => {
    const r = parseVerdictSource('approver pattern {\n  allow bash field\n}\n', 'e.verdict');
    expect(r.ir).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line])).toContainEqual(['dsl/syntax', 3]);
  });
});
