/**
 * Which files are policies. In a folder, a file is one when its name says so (`*.verdict`,
 * `*.policy.yaml`, `verdict.yaml`) or when it names a Verdict JSON Schema; a file named on the
 * command line or matched by a glob is one whatever its name (the commands decide that).
 */
import { isMap, isScalar, parseDocument } from 'yaml';

/** The names of `verdict lint`'s configuration files: never policies, wherever they are found. */
export const CONFIG_FILE_NAMES = ['verdict.config.yaml', 'verdict.config.yml'] as const;

/** The name endings of the files the commands read as policies (YAML, JSON, the DSL). */
export const POLICY_EXTENSIONS = ['.yaml', '.yml', '.json', '.verdict'] as const;

/**
 * A file is a policy by its name: `*.verdict`, `*.policy.yaml` (`.yml`, `.json`), or
 * `verdict.yaml` (`.yml`, `.json`).
 */
export function hasPolicyName(name: string): boolean {
  return POLICY_NAME.test(name);
}
const POLICY_NAME = /(?:\.verdict|\.policy\.(?:ya?ml|json)|^verdict\.(?:ya?ml|json))$/i;

/**
 * A file says it is a policy when it names a Verdict JSON Schema: the YAML language server's
 * modeline (`# yaml-language-server: $schema=…verdict…`), or a top-level `$schema` key (JSON or
 * YAML) whose value names one. `schemas`: the top-level `$schema` values of the file, when its
 * compilation read them (`CompileResult.schemas`), so the file is not parsed again.
 */
export function carriesVerdictSchema(text: string, schemas?: readonly string[]): boolean {
  for (const m of text.matchAll(/^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/gm)) {
    if (VERDICT_SCHEMA.test(m[1] ?? '')) return true;
  }
  if (!text.includes('$schema')) return false;
  if (schemas !== undefined) return schemas.some((s) => VERDICT_SCHEMA.test(s));
  try {
    const doc = parseDocument(text, { uniqueKeys: false });
    const root = doc.contents;
    if (!isMap(root)) return false;
    return root.items.some((p) => isScalar(p.key) && p.key.value === '$schema' && isScalar(p.value) && typeof p.value.value === 'string' && VERDICT_SCHEMA.test(p.value.value));
  } catch {
    return false;
  }
}
/** A schema address or path that names Verdict (`https://verdict.dev/schemas/…`, `node_modules/@verdict/compiler/schemas/…`). */
const VERDICT_SCHEMA = /verdict/i;

