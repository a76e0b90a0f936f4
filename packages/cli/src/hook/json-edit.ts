/**
 * Textual edits of a JSON file that leave every byte outside the edit as it was: the user's
 * layout, key order, number spellings and escapes survive `verdict hook install` and `uninstall`.
 * The text must be JSON `JSON.parse` accepts; the tree holds only positions.
 */

export interface JsonNode {
  kind: 'object' | 'array' | 'scalar';
  start: number;
  /** Just past the value. */
  end: number;
  members: JsonMember[];
  items: JsonNode[];
}

export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

class Scanner {
  i = 0;
  constructor(readonly text: string) {}
  ws(): void {
    while (this.i < this.text.length && isWs(this.text.charCodeAt(this.i))) this.i++;
  }
  string(): void {
    for (this.i++; this.i < this.text.length; this.i++) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x5c) this.i++;
      else if (c === 0x22) {
        this.i++;
        return;
      }
    }
  }
  value(): JsonNode {
    this.ws();
    const start = this.i;
    const c = this.text.charCodeAt(this.i);
    const node: JsonNode = { kind: 'scalar', start, end: start, members: [], items: [] };
    if (c === 0x7b) {
      node.kind = 'object';
      this.i++;
      this.ws();
      while (this.text.charCodeAt(this.i) !== 0x7d) {
        const keyStart = this.i;
        this.string();
        const key = JSON.parse(this.text.slice(keyStart, this.i)) as string;
        this.ws();
        this.i++; // colon
        node.members.push({ key, keyStart, value: this.value() });
        this.ws();
        if (this.text.charCodeAt(this.i) === 0x2c) {
          this.i++;
          this.ws();
        }
      }
      this.i++;
    } else if (c === 0x5b) {
      node.kind = 'array';
      this.i++;
      this.ws();
      while (this.text.charCodeAt(this.i) !== 0x5d) {
        node.items.push(this.value());
        this.ws();
        if (this.text.charCodeAt(this.i) === 0x2c) {
          this.i++;
          this.ws();
        }
      }
      this.i++;
    } else if (c === 0x22) this.string();
    else {
      while (this.i < this.text.length) {
        const d = this.text.charCodeAt(this.i);
        if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
        this.i++;
      }
    }
    node.end = this.i;
    return node;
  }
}

/** The positions of every value of `text` (valid JSON). */
export function jsonTree(text: string): JsonNode {
  return new Scanner(text).value();
}

/** How the file is laid out: one indent unit (`""`: all on one line) and its line end. */
export interface Layout {
  unit: string;
  eol: string;
}

export function detectLayout(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (!/[\r\n]\s*\S/.test(text.trim())) return { unit: text.trim() === '' ? '  ' : '', eol };
  const m = /\n([ \t]+)\S/.exec(text);
  return { unit: m ? m[1]! : '  ', eol };
}

const pad = (layout: Layout, depth: number): string => layout.unit.repeat(depth);

/** `value` as JSON text laid out like the file, for a place `depth` levels deep. */
export function render(value: unknown, layout: Layout, depth: number): string {
  if (layout.unit === '') return JSON.stringify(value);
  return JSON.stringify(value, null, layout.unit).replace(/\n/g, layout.eol + pad(layout, depth));
}

const splice = (text: string, from: number, to: number, insert: string): string => text.slice(0, from) + insert + text.slice(to);

/** Adds `"key": value` as the last member of the object `node` (which sits `depth` levels deep). */
export function insertMember(text: string, node: JsonNode, key: string, value: unknown, depth: number, layout: Layout): string {
  const sep = layout.unit === '' ? ':' : ': ';
  const body = `${JSON.stringify(key)}${sep}${render(value, layout, depth + 1)}`;
  const last = node.members.at(-1);
  if (last) {
    const lead = layout.unit === '' ? ',' : `,${layout.eol}${pad(layout, depth + 1)}`;
    return splice(text, last.value.end, last.value.end, lead + body);
  }
  const inner = layout.unit === '' ? body : `${layout.eol}${pad(layout, depth + 1)}${body}${layout.eol}${pad(layout, depth)}`;
  return splice(text, node.start + 1, node.end - 1, inner);
}

/** Adds `value` as the last item of the array `node` (which sits `depth` levels deep). */
export function appendItem(text: string, node: JsonNode, value: unknown, depth: number, layout: Layout): string {
  const body = render(value, layout, depth + 1);
  const last = node.items.at(-1);
  if (last) {
    const lead = layout.unit === '' ? ',' : `,${layout.eol}${pad(layout, depth + 1)}`;
    return splice(text, last.end, last.end, lead + body);
  }
  const inner = layout.unit === '' ? body : `${layout.eol}${pad(layout, depth + 1)}${body}${layout.eol}${pad(layout, depth)}`;
  return splice(text, node.start + 1, node.end - 1, inner);
}

/** Removes item `index` of the array `node` with the separator before it (after it, for the first). */
export function removeItem(text: string, node: JsonNode, index: number): string {
  const item = node.items[index]!;
  if (node.items.length === 1) return splice(text, node.start + 1, node.end - 1, '');
  if (index > 0) return splice(text, node.items[index - 1]!.end, item.end, '');
  return splice(text, item.start, node.items[1]!.start, '');
}

/** Removes member `index` of the object `node`, as `removeItem` does. */
export function removeMember(text: string, node: JsonNode, index: number): string {
  const m = node.members[index]!;
  if (node.members.length === 1) return splice(text, node.start + 1, node.end - 1, '');
  if (index > 0) return splice(text, node.members[index - 1]!.value.end, m.value.end, '');
  return splice(text, m.keyStart, node.members[1]!.keyStart, '');
}
