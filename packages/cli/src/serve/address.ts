/** Where `verdict serve` listens and where `verdict hook --server` connects: `unix:PATH` or `HOST:PORT`. */

export type Address = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

export interface BadAddress {
  message: string;
  help: string;
}

const ADVICE = 'write `unix:PATH` or `HOST:PORT`, as in `unix:/run/verdict.sock` or `127.0.0.1:8787`';

/** The address `text` names, or why it names none (for a usage error). */
export function parseAddress(text: string): Address | BadAddress {
  if (text.startsWith('unix:')) {
    const path = text.slice(5);
    if (path === '') return { message: '`unix:` has no socket path', help: ADVICE };
    return { kind: 'unix', path };
  }
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!m) return { message: `\`${text}\` is not an address`, help: ADVICE };
  const port = Number(m[3]);
  if (port > 65535) return { message: `port \`${m[3]}\` is out of range`, help: 'a port is a number from 0 to 65535 (0 picks a free one)' };
  return { kind: 'tcp', host: m[1] ?? m[2]!, port };
}

/** Whether only this machine can connect: a unix socket, or a loopback host. */
export function isLocal(a: Address): boolean {
  if (a.kind === 'unix') return true;
  return a.host === 'localhost' || a.host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a.host);
}

export function showAddress(a: Address): string {
  return a.kind === 'unix' ? `unix:${a.path}` : a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}
