#!/usr/bin/env node
// A tiny MCP server over stdio (newline-delimited JSON-RPC) with one tool, `stamp`, that writes the file
// named by its `path` argument: the side effect an MCP case checks on disk.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
const TOOL = {
  name: 'stamp',
  description: 'Write the word "stamped" to a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'the file to write' } }, required: ['path'] },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return; // a notification
  switch (msg.method) {
    case 'initialize':
      send({ id: msg.id, result: { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'e2e', version: '1.0.0' } } });
      break;
    case 'tools/list':
      send({ id: msg.id, result: { tools: [TOOL] } });
      break;
    case 'tools/call': {
      const path = String(msg.params?.arguments?.path ?? '');
      try {
        writeFileSync(path, 'stamped\n');
        send({ id: msg.id, result: { content: [{ type: 'text', text: `stamped ${path}` }] } });
      } catch (err) {
        send({ id: msg.id, result: { isError: true, content: [{ type: 'text', text: String(err) }] } });
      }
      break;
    }
    default:
      if (msg.method === 'ping') send({ id: msg.id, result: {} });
      else send({ id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
  }
});
