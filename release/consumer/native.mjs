// Plain Node, ES module: read an agent's own permission file with @verdict/native (smol-toml installed from the registry).
import { readCodexRules, readGeminiPolicy } from '@verdict/native';

const codex = readCodexRules('default.rules', 'prefix_rule(pattern = ["git", "-C"])\n');
const gemini = readGeminiPolicy('p.toml', '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["go", "test"]\ndecision = "allow"\npriority = 100\n');
console.log(`${codex.prefixRules[0].decision} ${codex.prefixRules[0].pattern.map((t) => t.alternatives[0]).join(' ')} at ${codex.prefixRules[0].patternSpan.start.line}:${codex.prefixRules[0].patternSpan.start.column}`);
console.log(`${gemini.rules[0].decision.value} ${JSON.stringify(gemini.rules[0].commandPrefix.value)} at ${gemini.rules[0].commandPrefix.span.start.line}:${gemini.rules[0].commandPrefix.span.start.column}`);
