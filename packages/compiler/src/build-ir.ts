/**
 * The document tree of a YAML or JSON file to the IR (part of stage `parse`).
 * Lenient about types on purpose: a value of the wrong type is left out of the IR, and the JSON
 * Schema check in `validate` reports it once, at its position.
 */
import { getPreset, POLICY_FIELDS, PRESET_NAMES } from '@verdict/engine';
import type {
  ApprovalsIR,
  ApproverIR,
  Diagnostic,
  Located,
  PolicyFileIR,
  PolicyIR,
  RuleIR,
  RuledDecision,
  ShellToolIR,
  Span,
  TestCaseIR,
  WrapperIR,
} from '@verdict/engine';
import { didYouMeanHelp } from './did-you-mean.ts';
import { presetIR } from './lower.ts';
import { entryOf, toJsonText } from './tree.ts';
import type { JMap, JNode } from './tree.ts';

/** Keys of the approver block, also accepted at the top level ("bare" placement). */
export const APPROVER_KEYS: readonly string[] = ['mode', 'default', 'reason', 'input', 'allow', 'deny', 'ask', 'shell', 'unknown', 'wrappers', 'environment', 'shells', 'protections'];

function str(node: JNode | undefined): string | undefined {
  if (!node || node.kind !== 'scalar') return undefined;
  if (typeof node.value === 'string') return node.value;
  return undefined;
}

/** A string field; `null` (an empty YAML value) reads as `""`, as Go's decoder does. */
function strOrNull(node: JNode | undefined): string | undefined {
  if (node && node.kind === 'scalar' && node.value === null) return '';
  return str(node);
}

function located(node: JNode | undefined): Located<string> | undefined {
  const v = strOrNull(node);
  return v === undefined || !node ? undefined : { value: v, span: node.span };
}

function buildRule(node: JNode): RuleIR | undefined {
  if (node.kind !== 'map') return undefined;
  const rule: RuleIR = { tool: '', match: '', span: node.span };
  const tool = entryOf(node, 'tool');
  const match = entryOf(node, 'match');
  const field = entryOf(node, 'field');
  const t = strOrNull(tool?.value);
  if (tool && t !== undefined) {
    rule.tool = t;
    rule.toolSpan = tool.value.span;
  }
  const m = strOrNull(match?.value);
  if (match && m !== undefined) {
    rule.match = m;
    rule.matchSpan = match.value.span;
  }
  const f = strOrNull(field?.value);
  if (field && f !== undefined) {
    // An empty `field` is no field (the engine searches the whole input); its span stays for lint.
    if (f !== '') rule.field = f;
    rule.fieldSpan = field.value.span;
  }
  const command = entryOf(node, 'command');
  if (command && command.value.kind === 'seq') {
    const words: (string | string[])[] = [];
    let ok = true;
    for (const w of command.value.items) {
      const one = str(w);
      if (one !== undefined) words.push(one);
      else if (w.kind === 'seq') {
        const alts = w.items.map(str);
        if (alts.every((a): a is string => a !== undefined)) words.push(alts);
        else ok = false;
      } else ok = false;
    }
    // A word of the wrong type: the schema reports it; the rule stays a command rule that cannot load.
    rule.command = ok ? words : [];
    rule.commandSpan = command.value.span;
  } else if (command) {
    rule.command = [];
    rule.commandSpan = command.value.span;
  }
  for (const key of ['args', 'redirect'] as const) {
    const e = entryOf(node, key);
    const v = strOrNull(e?.value);
    if (e && v !== undefined) {
      rule[key] = v;
      rule[`${key}Span`] = e.value.span;
    }
  }
  return rule;
}

function buildShell(node: JNode | undefined): ShellToolIR[] | undefined {
  if (!node || node.kind !== 'seq') return undefined;
  const out: ShellToolIR[] = [];
  for (const item of node.items) {
    if (item.kind !== 'map') continue;
    const tool = str(entryOf(item, 'tool')?.value);
    const field = str(entryOf(item, 'field')?.value);
    const shells = shellNames(entryOf(item, 'shells')?.value);
    if (tool !== undefined && field !== undefined) out.push({ tool, field, ...(shells !== undefined ? { shells } : {}), span: item.span });
  }
  return out;
}

/** `shells: [bash, zsh]`. */
function shellNames(node: JNode | undefined): string[] | undefined {
  return node?.kind === 'seq' ? node.items.map(str).filter((x): x is string => x !== undefined) : undefined;
}

function buildWrappers(node: JNode | undefined): Record<string, WrapperIR> | undefined {
  if (!node || node.kind !== 'map') return undefined;
  const out: Record<string, WrapperIR> = {};
  for (const entry of node.entries) {
    const name = entry.key;
    if (entry.value.kind !== 'map') continue;
    const spec: WrapperIR = { span: entry.value.span };
    for (const k of ['flags', 'options', 'noCommand', 'refuse'] as const) {
      const v = entryOf(entry.value, k)?.value;
      if (v?.kind === 'seq') spec[k] = v.items.map(str).filter((x): x is string => x !== undefined);
    }
    const p = entryOf(entry.value, 'positionals')?.value;
    if (p?.kind === 'scalar' && typeof p.value === 'number') spec.positionals = p.value;
    out[name] = spec;
  }
  return out;
}

function buildRules(node: JNode | undefined): RuleIR[] {
  if (!node || node.kind !== 'seq') return [];
  const out: RuleIR[] = [];
  for (const item of node.items) {
    const r = buildRule(item);
    if (r) out.push(r);
  }
  return out;
}

/** An approver block from a mapping (the root mapping itself for the bare placement). */
export function buildApprover(block: JMap): ApproverIR {
  const ir: ApproverIR = { mode: '', default: '', reason: '', input: 'raw', allow: [], deny: [], span: block.span };
  const mode = entryOf(block, 'mode');
  const def = entryOf(block, 'default');
  const reason = entryOf(block, 'reason');
  const input = entryOf(block, 'input');
  const m = strOrNull(mode?.value);
  if (mode && m !== undefined) {
    ir.mode = m;
    ir.modeSpan = mode.value.span;
  }
  const d = strOrNull(def?.value);
  if (def && d !== undefined) {
    ir.default = d;
    ir.defaultSpan = def.value.span;
  }
  const r = strOrNull(reason?.value);
  if (reason && r !== undefined) {
    ir.reason = r;
    ir.reasonSpan = reason.value.span;
  }
  const i = str(input?.value);
  if (input && (i === 'raw' || i === 'canonical')) {
    ir.input = i;
    ir.inputSpan = input.value.span;
  }
  ir.allow = buildRules(entryOf(block, 'allow')?.value);
  ir.deny = buildRules(entryOf(block, 'deny')?.value);
  // Set only when it holds a rule: an empty ask list is no ask list (the IR of every syntax agrees).
  const ask = buildRules(entryOf(block, 'ask')?.value);
  if (ask.length > 0) ir.ask = ask;
  const shell = entryOf(block, 'shell');
  const shellTools = buildShell(shell?.value);
  if (shell && shellTools) {
    ir.shell = shellTools;
    ir.shellSpan = shell.value.span;
  }
  const unknown = entryOf(block, 'unknown');
  const u = str(unknown?.value);
  if (unknown && u !== undefined) {
    ir.unknown = u;
    ir.unknownSpan = unknown.value.span;
  }
  const wrappers = entryOf(block, 'wrappers');
  const w = buildWrappers(wrappers?.value);
  if (wrappers && w) {
    ir.wrappers = w;
    ir.wrappersSpan = wrappers.value.span;
  }
  const environment = entryOf(block, 'environment');
  if (environment && environment.value.kind === 'seq') {
    ir.environment = environment.value.items.map(str).filter((x): x is string => x !== undefined);
    ir.environmentSpan = environment.value.span;
  }
  const shells = entryOf(block, 'shells');
  const names = shellNames(shells?.value);
  if (shells && names !== undefined) {
    ir.shells = names;
    ir.shellsSpan = shells.value.span;
  }
  const protections = entryOf(block, 'protections');
  if (protections && protections.value.kind === 'map') {
    const lift = entryOf(protections.value, 'lift');
    const items = lift && lift.value.kind === 'seq' ? lift.value.items.map(str).filter((x): x is string => x !== undefined) : [];
    ir.protections = { lift: items };
    ir.protectionsSpan = protections.value.span;
  }
  return ir;
}

function buildTests(node: JNode | undefined, diagnostics: Diagnostic[]): TestCaseIR[] {
  if (!node || node.kind !== 'seq') return [];
  const out: TestCaseIR[] = [];
  for (const item of node.items) {
    if (item.kind !== 'map') continue;
    const expect = str(entryOf(item, 'expect')?.value);
    const tc: TestCaseIR = {
      tool: str(entryOf(item, 'tool')?.value) ?? '',
      input: '{}',
      expect: (expect === 'allow' || expect === 'ask' ? expect : 'deny') satisfies RuledDecision,
      span: item.span,
    };
    const name = str(entryOf(item, 'name')?.value);
    if (name !== undefined) tc.name = name;
    const reason = str(entryOf(item, 'reason')?.value);
    if (reason !== undefined) tc.reason = reason;
    const rule = str(entryOf(item, 'rule')?.value);
    if (rule !== undefined) tc.rule = rule;
    const input = entryOf(item, 'input');
    if (input) {
      const v = input.value;
      if (v.kind === 'scalar' && typeof v.value === 'string') {
        tc.input = v.value;
      } else {
        const text = toJsonText(v);
        if (text === undefined) {
          diagnostics.push({
            code: 'tests/invalid-input',
            severity: 'error',
            message: 'test input holds a number JSON cannot write (`.inf` or `.nan`)',
            help: 'write the raw JSON text of the input as a string instead',
            span: v.span,
          });
        } else {
          tc.input = text;
        }
      }
    }
    out.push(tc);
  }
  return out;
}

function buildPolicy(block: JMap, diagnostics: Diagnostic[]): PolicyIR {
  const ir: PolicyIR = { span: block.span };
  const presetEntry = entryOf(block, 'preset');
  const presetName = str(presetEntry?.value);
  if (presetEntry && presetName !== undefined) {
    const preset = getPreset(presetName);
    const span = presetEntry.value.span;
    if (!preset) {
      const d: Diagnostic = {
        code: 'policy/unknown-preset',
        severity: 'error',
        message: `unknown policy preset \`${presetName}\``,
        help:
          didYouMeanHelp(presetName, PRESET_NAMES) ??
          `presets are ${PRESET_NAMES.map((n) => `\`${n}\``).join(', ')}`,
        span,
        path: ['policy', 'preset'],
      };
      diagnostics.push(d);
    } else {
      // A preset is a starting point: keys written beside it replace its values.
      const { policy: top, approvals } = presetIR(preset, span);
      Object.assign(ir, top);
      if (Object.keys(approvals).length > 0) ir.approvals = approvals;
    }
  }
  // The string fields of a fixed set; `timeout` and `max_retries` are read below.
  const enums = POLICY_FIELDS.filter((f) => f.domain !== undefined);
  for (const f of enums) {
    if (f.group !== 'policy') continue;
    const l = located(entryOf(block, f.name)?.value);
    if (l) ir[f.prop] = l;
  }
  const appr = entryOf(block, 'approvals')?.value;
  if (appr && appr.kind === 'map') {
    const a: ApprovalsIR = { ...(ir.approvals ?? {}), span: appr.span };
    for (const f of enums) {
      if (f.group !== 'approvals') continue;
      const l = located(entryOf(appr, f.name)?.value);
      if (l) (a as Record<string, Located<string>>)[f.prop] = l;
    }
    const timeout = entryOf(appr, 'timeout')?.value;
    if (timeout && timeout.kind === 'scalar') {
      // A number is kept as written (`30`, `-0`): Go's duration parser then judges it, with its message.
      const v = timeout.value;
      if (typeof v === 'string') a.timeout = { value: v, span: timeout.span };
      else if (typeof v === 'number') a.timeout = { value: timeout.source ?? String(v), span: timeout.span };
      else if (v === null) a.timeout = { value: '', span: timeout.span };
    }
    const maxRetries = entryOf(appr, 'max_retries')?.value;
    if (maxRetries && maxRetries.kind === 'scalar' && typeof maxRetries.value === 'number' && Number.isInteger(maxRetries.value)) {
      a.maxRetries = { value: maxRetries.value, span: maxRetries.span };
    }
    ir.approvals = a;
  }
  return ir;
}

/** The IR of a whole file from its root mapping. */
export function buildFileIR(file: string, root: JMap, diagnostics: Diagnostic[]): PolicyFileIR {
  const ir: PolicyFileIR = { file, tests: [] };
  const driver = entryOf(root, 'driver');
  const ref = str(driver?.value);
  if (driver && ref !== undefined) ir.driver = { ref, span: driver.value.span };

  const policy = entryOf(root, 'policy')?.value;
  if (policy && policy.kind === 'map') ir.policy = buildPolicy(policy, diagnostics);

  // Approver placements: bare keys at the top level, `approver:`, `agent: approver:`.
  const placements: { placement: NonNullable<PolicyFileIR['approverPlacement']>; block: JMap; at: Span }[] = [];
  const bareKeys = root.entries.filter((e) => APPROVER_KEYS.includes(e.key));
  if (bareKeys.length > 0) placements.push({ placement: 'bare', block: root, at: bareKeys[0]!.keySpan });
  const approver = entryOf(root, 'approver');
  if (approver && approver.value.kind === 'map') {
    placements.push({ placement: 'approver', block: approver.value, at: approver.keySpan });
  }
  const agent = entryOf(root, 'agent')?.value;
  if (agent && agent.kind === 'map') {
    const nested = entryOf(agent, 'approver');
    if (nested && nested.value.kind === 'map') {
      placements.push({ placement: 'agent.approver', block: nested.value, at: nested.keySpan });
    }
  }
  const first = placements[0];
  if (first) {
    ir.approver = buildApprover(first.block);
    ir.approverPlacement = first.placement;
    for (const other of placements.slice(1)) {
      diagnostics.push({
        code: 'approver/duplicate-block',
        severity: 'error',
        message: `a second approver block (${placementName(other.placement)}); the file already has one (${placementName(first.placement)})`,
        help: 'keep one approver block per file',
        span: other.at,
        related: [{ message: 'the first approver block', span: first.at }],
      });
    }
  }

  ir.tests = buildTests(entryOf(root, 'tests')?.value, diagnostics);
  return ir;
}

function placementName(p: NonNullable<PolicyFileIR['approverPlacement']>): string {
  if (p === 'bare') return 'top-level `mode`/`allow`/`deny` keys';
  if (p === 'approver') return '`approver:`';
  return '`agent: approver:`';
}
