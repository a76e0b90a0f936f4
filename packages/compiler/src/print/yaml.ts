/**
 * The YAML layout of a policy file, from the IR of any syntax. Regexes are double-quoted (the
 * yaml library escapes them), raw test inputs are quoted strings, and inputs whose text is the
 * compact JSON of a value are written as that value, which the YAML front end turns back into
 * the same text.
 */
import { Document, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { policyFieldsIn } from '@verdict/engine';
import type { ApprovalsIR, ApproverIR, PolicyFileIR, PolicyIR, RuleIR, ShellToolIR, TestCaseIR } from '@verdict/engine';

type Doc = Document;

function quoted(value: string, type: Scalar.Type = 'QUOTE_DOUBLE'): Scalar<string> {
  const s = new Scalar(value);
  s.type = type;
  return s;
}

function plain(value: string | number): Scalar {
  return new Scalar(value);
}

/** Single quotes read best for JSON text; double quotes for anything with control characters. */
function textScalar(value: string): Scalar<string> {
  // eslint-disable-next-line no-control-regex
  return quoted(value, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(value) ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE');
}

function map(flow = false): YAMLMap {
  const m = new YAMLMap();
  m.flow = flow;
  return m;
}

function ruleNode(r: RuleIR): YAMLMap {
  const m = map(true);
  if (r.tool !== '') m.set('tool', plain(r.tool));
  if (r.field !== undefined && r.field !== '') m.set('field', plain(r.field));
  if (r.match !== '') m.set('match', quoted(r.match));
  if (r.command !== undefined) {
    const words = seq(r.command.map((w) => (typeof w === 'string' ? quoted(w) : flowSeq(w.map((x) => quoted(x))))));
    words.flow = true;
    m.set('command', words);
  }
  if (r.args !== undefined) m.set('args', quoted(r.args));
  if (r.redirect !== undefined) m.set('redirect', quoted(r.redirect));
  return m;
}

function approverEntries(a: ApproverIR): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (a.mode !== '') out.push(['mode', plain(a.mode)]);
  if (a.default !== '') out.push(['default', plain(a.default)]);
  if (a.reason !== '') out.push(['reason', quoted(a.reason)]);
  if (a.input !== 'raw') out.push(['input', plain(a.input)]);
  if (a.unknown !== undefined) out.push(['unknown', plain(a.unknown)]);
  if (a.shell !== undefined) {
    const entry = (t: ShellToolIR): [string, unknown][] => [['tool', plain(t.tool)], ['field', plain(t.field)], ...(t.shells !== undefined ? [['shells', flowSeq(t.shells.map((x) => plain(x)))] as [string, unknown]] : [])];
    out.push(['shell', seq(a.shell.map((t) => mapOf(entry(t), true)))]);
  }
  if (a.wrappers !== undefined) {
    const entries: [string, unknown][] = Object.entries(a.wrappers).map(([name, w]) => {
      const spec: [string, unknown][] = [];
      for (const k of ['flags', 'options', 'noCommand', 'refuse'] as const) {
        const v = w[k];
        if (v !== undefined) spec.push([k, flowSeq(v.map((x) => quoted(x)))]);
      }
      if (w.positionals !== undefined) spec.push(['positionals', plain(w.positionals)]);
      return [name, mapOf(spec, true)];
    });
    out.push(['wrappers', mapOf(entries)]);
  }
  if (a.environment !== undefined) out.push(['environment', flowSeq(a.environment.map((x) => plain(x)))]);
  if (a.shells !== undefined) out.push(['shells', flowSeq(a.shells.map((x) => plain(x)))]);
  if (a.protections !== undefined) out.push(['protections', mapOf([['lift', flowSeq(a.protections.lift.map((x) => plain(x)))]])]);
  if (a.allow.length > 0) out.push(['allow', seq(a.allow.map(ruleNode))]);
  if (a.deny.length > 0) out.push(['deny', seq(a.deny.map(ruleNode))]);
  if (a.ask !== undefined && a.ask.length > 0) out.push(['ask', seq(a.ask.map(ruleNode))]);
  return out;
}

function flowSeq(items: unknown[]): YAMLSeq {
  const s = seq(items);
  s.flow = true;
  return s;
}

function seq(items: unknown[]): YAMLSeq {
  const s = new YAMLSeq();
  s.items = items;
  return s;
}

function mapOf(entries: [string, unknown][], flow = false): YAMLMap {
  const m = map(flow);
  for (const [k, v] of entries) m.set(k, v);
  return m;
}

function approvalsNode(a: ApprovalsIR): YAMLMap {
  const entries: [string, unknown][] = [];
  const add = (k: string, l: { value: string } | undefined): void => {
    if (l) entries.push([k, plain(l.value)]);
  };
  for (const f of policyFieldsIn('approvals')) if (f.prop !== 'maxRetries') add(f.name, a[f.prop]);
  if (a.maxRetries) entries.push(['max_retries', plain(a.maxRetries.value)]);
  return mapOf(entries, entries.length === 0);
}

function policyNode(p: PolicyIR): YAMLMap {
  const entries: [string, unknown][] = [];
  const add = (k: string, l: { value: string } | undefined): void => {
    if (l) entries.push([k, plain(l.value)]);
  };
  for (const f of policyFieldsIn('policy')) add(f.name, p[f.prop]);
  if (p.approvals) entries.push(['approvals', approvalsNode(p.approvals)]);
  return mapOf(entries, entries.length === 0);
}

/** The input as a YAML value when that value's compact JSON is exactly the input text. */
function inputNode(doc: Doc, input: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return textScalar(input);
  }
  if (typeof value === 'string' || JSON.stringify(value) !== input || input.includes('"__proto__"')) return textScalar(input);
  return doc.createNode(value, { flow: true });
}

function testNode(doc: Doc, t: TestCaseIR): YAMLMap {
  const entries: [string, unknown][] = [];
  if (t.name !== undefined) entries.push(['name', quoted(t.name)]);
  entries.push(['tool', plain(t.tool)]);
  entries.push(['input', inputNode(doc, t.input)]);
  entries.push(['expect', plain(t.expect)]);
  if (t.reason !== undefined) entries.push(['reason', quoted(t.reason)]);
  if (t.rule !== undefined) entries.push(['rule', plain(t.rule)]);
  return mapOf(entries, true);
}

export function printYaml(ir: PolicyFileIR): string {
  const doc = new Document();
  const root = map();
  if (ir.driver) root.set('driver', plain(ir.driver.ref));
  if (ir.policy) root.set('policy', policyNode(ir.policy));
  if (ir.approver) {
    const entries = approverEntries(ir.approver);
    if (ir.approverPlacement === 'bare' && entries.length > 0) {
      for (const [k, v] of entries) root.set(k, v);
    } else if (ir.approverPlacement === 'agent.approver') {
      root.set('agent', mapOf([['approver', mapOf(entries, entries.length === 0)]]));
    } else {
      root.set('approver', mapOf(entries, entries.length === 0));
    }
  }
  if (ir.tests.length > 0) root.set('tests', seq(ir.tests.map((t) => testNode(doc, t))));
  doc.contents = root;
  return doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false });
}
