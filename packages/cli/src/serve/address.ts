/** Where `verdict serve` listens and where `verdict hook --server` connects: `unix:PATH` or `HOST:PORT`. */

export type Address = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

/** The address `text` names, or why it names none (a sentence for a usage error). */
export function parseAddress(text: string): Address | string {
  if (text.startsWith('unix:')) {
    const path = text.slice(5);
    if (path === '') return '`unix:` needs a socket path, as in `unix:/run/verdict.sock`';
    return { kind: 'unix', path };
  }
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!m) return `\`${text}\` is not an address: write \`unix:PATH\` or \`HOST:PORT\`, as in \`127.0.0.1:8787\``;
  const port = Number(m[3]);
  if (port > 65535) return `port \`${m[3]}\` is out of range (0 to 65535)`;
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
