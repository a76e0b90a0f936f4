/**
 * fast-check arbitraries of shell scripts built from every construct, wrapper and quoting the
 * extraction models: the properties and the differential tests share them.
 */
import fc from 'fast-check';

/** `'…'` quoting that bash reads back as the same text. */
export function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Ways to write a program name that bash runs as that program (via PATH, or at a path for deny). */
export function spellings(name: string, paths: boolean): fc.Arbitrary<string> {
  const forms = [
    name,
    `'${name}'`,
    `"${name}"`,
    `\\${name}`,
    `${name[0]}\\${name.slice(1)}`,
    `'${name[0]}''${name.slice(1)}'`,
    `${name[0]}""${name.slice(1)}`,
    `$'${name}'`,
  ];
  if (paths) forms.push(`/bin/${name}`, `/usr/bin/${name}`, `./${name}`);
  return fc.constantFrom(...forms);
}

const ARGS = fc.array(fc.constantFrom('-la', 'x', '-rf', '/', 'src', '"a b"', "'c'", '--', '1'), { maxLength: 3 });

const WRAPPERS = [
  'timeout 5 ',
  'env A=1 ',
  'nice -n 3 ',
  'sudo -u root ',
  'command ',
  'nohup ',
  'stdbuf -oL ',
  'setsid ',
  'ionice -c 3 ',
  'builtin ',
  'exec ',
  'env -i ',
  '/usr/bin/time -p ',
];

/** A simple command running `program` (already spelled), through up to two wrappers. */
function simple(program: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('', 'FOO=1 ', 'A=1 B="x y" '), fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 2 }), program, ARGS)
    .map(([assign, w, p, a]) => `${assign}${w.join('')}${[p, ...a].join(' ')}`);
}

/** Wraps one script `s` in a construct; `other` is a script that runs beside it. */
function construct(s: string, other: string, kind: number, background: boolean): string {
  switch (kind) {
    case 0: return `${other} && ${s}`;
    case 1: return `${s} || ${other}`;
    case 2: return `${other}; ${s}`;
    case 3: return `${other} | ${s}`;
    case 4: return background ? `${s} & ${other}` : `${other}\n${s}`;
    case 5: return `( ${s} )`;
    case 6: return `{ ${s}; }`;
    case 7: return `echo $( ${s} )`;
    case 8: return `cat <( ${s} )`;
    case 9: return `if ${other}; then ${s}; fi`;
    case 10: return `for i in 1 2; do ${s}; done`;
    case 11: return `while ${other}; do ${s}; done`;
    case 12: return `case x in x) ${s};; esac`;
    case 13: return `f() { ${s}; }`;
    case 14: return `bash -c ${quote(s)}`;
    case 15: return `sh -lc ${quote(s)}`;
    case 16: return `eval ${quote(s)}`;
    case 17: return `x=$( ${s} )`;
    case 18: return s.includes('`') ? `echo $(${s})` : `echo \`${s}\``;
    case 19: return `! ${s}`;
    case 20: return `until ${s}; do ${other}; done`;
    default: return `${s} > /dev/null 2>&1`;
  }
}
const KINDS = 22;

/** Simple commands that only use `program` at the leaves, for `find -exec` and `xargs`. */
function leafOnly(program: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    simple(program),
    program.map((p) => `ls | xargs ${p} x`),
    program.map((p) => `find . -name x -exec ${p} {} \\;`),
    program.map((p) => `find . -execdir ${p} {} +`),
  );
}

/**
 * A script in which `target` runs somewhere (any construct, wrapper and quoting), beside benign
 * commands. `background` allows a top-level `&` (a script ending in `&` cannot be joined by `&&`).
 */
export function scriptRunning(target: fc.Arbitrary<string>, benign: fc.Arbitrary<string>, background = true): fc.Arbitrary<string> {
  return fc
    .tuple(leafOnly(target), fc.array(fc.tuple(fc.nat(KINDS - 1), leafOnly(benign)), { maxLength: 4 }))
    .map(([leaf, layers]) => layers.reduce((s, [kind, other]) => construct(s, other, kind, background), leaf));
}

/** A script of benign commands only. */
export function benignScript(benign: fc.Arbitrary<string>, background = true): fc.Arbitrary<string> {
  return scriptRunning(benign, benign, background);
}
