/**
 * The bash parser both agents split shell text with: tree-sitter-bash (Codex links the Rust crate, Gemini CLI
 * loads `tree-sitter-bash.wasm` through web-tree-sitter). Verdict's own reader (`@verdict/shell`) answers a
 * different question (every command the shell would run, fail-closed); to decide as these agents do, their
 * models must see the tree the agents see, error nodes included. Pinned to the versions `@google/gemini-cli-core`
 * 0.61.0 pins (web-tree-sitter 0.25.10, tree-sitter-bash 0.25.0).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

export type { Node as BashNode, Tree as BashTree };

/** A loaded bash grammar. `parse` returns null when tree-sitter gives no tree (the agents then fall back). */
export interface BashParser {
  parse(text: string): Tree | null;
}

let loading: Promise<BashParser> | undefined;

/** Loads the grammar once (WebAssembly; asynchronous). */
export function loadBashParser(): Promise<BashParser> {
  loading ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    // The grammar's bytes, read here: given a path, web-tree-sitter reads it with a dynamic `import()`, which a
    // bundled CommonJS command run through a code cache (vm.Script) cannot do.
    const language = await Language.load(readFileSync(wasm));
    const parser = new Parser();
    parser.setLanguage(language);
    return {
      parse(text: string): Tree | null {
        try {
          return parser.parse(text);
        } catch {
          return null;
        }
      },
    };
  })();
  return loading;
}

/** A node's children, every one (punctuation and anonymous nodes included), in order. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c) out.push(c);
  }
  return out;
}

/** A node's named children, in order. */
export function namedChildren(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.namedChildCount; i++) {
    const c = node.namedChild(i);
    if (c) out.push(c);
  }
  return out;
}
