import { findInputWitness, ruleMatchesInput, unnamedTool } from '@verdict/analysis';
import { caseFold } from '@verdict/engine';
import type { ApproverIR, RuleIR } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { effectiveMode } from '../support/approver-facts.ts';

/** Text put before and after a denied value: with a space the rule still matches, with a newline it must too. */
const AROUND = [
  { where: 'before', space: (v: string) => `ls ${v}`, newline: (v: string) => `ls\n${v}` },
  { where: 'after', space: (v: string) => `${v} ls`, newline: (v: string) => `${v}\nls` },
] as const;

export default createRule({
  id: 'rules/field-deny-evasion',
  meta: {
    description:
      'a `field` deny rule that a newline in the value gets past (the value is matched whole and `.` does not cross `\\n`), and deny lists made only of `field` rules',
    severity: 'warning',
    category: 'rules',
    messages: {
      newline:
        'this deny rule matches its value whole and `.` stops at a newline, so a line {{where}} the denied text gets past it, e.g. `{{example}}`',
      fieldOnly:
        'every deny rule for `{{tool}}` is a `field` rule, so an input that nests the key one level down (or is not a JSON object) is never denied, e.g. `{{example}}`',
    },
    help: {
      newline: 'start the pattern with `(?s)` so that `.` also matches a newline: `(?s).*rm\\s+-rf.*`',
      fieldOnly: 'add a deny rule without `field` that searches the whole input for the same text, or deny by default',
    },
    docs: { recommended: true },
    fixable: 'code',
    needs: ['approver'],
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        if (list !== 'deny' || rule.field === undefined || rule.match === '') return;
        const field = rule.field;
        const witness = findInputWitness(ctx.regexCache, rule, 'deny', approver.input);
        const value = witness?.value[field];
        if (typeof value !== 'string') return;
        const matches = (v: string): boolean | undefined =>
          ruleMatchesInput(ctx.regexCache, rule, 'deny', approver.input, JSON.stringify({ [field]: v }));
        for (const a of AROUND) {
          // Only a pattern that tolerates other text there (`.*` around it) is defeated by the newline.
          if (matches(a.space(value)) !== true || matches(a.newline(value)) !== false) continue;
          const example = JSON.stringify({ [field]: a.newline(value) });
          // Fix: `(?s)` in front, which only widens what the deny rule denies; offered when it
          // closes the gap shown (a pattern that turns `s` off again keeps the finding, unfixed).
          const dotAll = `(?s)${rule.match}`;
          const closes = ruleMatchesInput(ctx.regexCache, { ...rule, match: dotAll }, 'deny', approver.input, example) === true;
          const fix = closes ? ctx.fixPattern(rule, dotAll) : undefined;
          ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'newline', data: { where: a.where, example }, fix });
          return;
        }
      },
      approver(approver) {
        if (effectiveMode(approver) !== 'pattern') return;
        const done = new Set<string>();
        for (const rule of approver.deny) {
          if (rule.field === undefined || rule.match === '') continue;
          const key = rule.tool === '' ? '' : caseFold(rule.tool);
          if (done.has(key)) continue;
          done.add(key);
          const applying = approver.deny.filter((r) => r.tool === '' || (key !== '' && caseFold(r.tool) === key));
          if (!applying.every((r) => r.field !== undefined)) continue;
          const example = nestedExample(ctx.regexCache, rule, approver);
          if (example === undefined) continue;
          const compiled = ctx.services.approver;
          if (compiled === null) return;
          const toolName = rule.tool === '' ? otherTool(approver) : rule.tool;
          // The whole approver decides the example: nothing is reported that it does not allow.
          if (compiled.approve({ toolName, input: example }).decision !== 'allow') continue;
          ctx.report({ node: rule, messageId: 'fieldOnly', data: { tool: rule.tool === '' ? '*' : rule.tool, example } });
        }
      },
    };
  },
});

/** The rule's witness nested one level down: `{"args":{"command":"rm -rf"}}`. */
function nestedExample(regexCache: Parameters<typeof findInputWitness>[0], rule: RuleIR, approver: ApproverIR): string | undefined {
  const witness = findInputWitness(regexCache, rule, 'deny', approver.input);
  if (witness === undefined) return undefined;
  const outer = caseFold(rule.field ?? '') === caseFold('args') ? 'input' : 'args';
  return JSON.stringify({ [outer]: witness.value });
}

/** A tool name no rule names (for rules without `tool`). */
function otherTool(approver: ApproverIR): string {
  return unnamedTool([...approver.allow, ...approver.deny].map((r) => r.tool));
}
