// Fake model servers on 127.0.0.1: each plays a scripted list of tool calls, one per model turn, then a
// final text, and records what the agent sends back (the tool results the model would read).
//
// A script is a list of steps `{ tool, input, delayMs? }`. The agent is at step N when its conversation
// already holds N tool results; step N is answered with that tool call, and past the end with "done".
// Every server stops itself after `lifeMs` (bounded in time even if the agent never exits).
import { createServer } from 'node:http';

function listen(handler, lifeMs) {
  return new Promise((resolve, reject) => {
    const record = { requests: [], results: [], tools: undefined, errors: [] };
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        record.requests.push({ method: req.method, url: req.url });
        Promise.resolve(handler(req, res, body, record)).catch((err) => {
          record.errors.push(String(err?.stack ?? err));
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
      });
    });
    const timer = setTimeout(() => server.close(), lifeMs);
    timer.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        port,
        record,
        close: () =>
          new Promise((r) => {
            clearTimeout(timer);
            server.closeAllConnections?.();
            server.close(() => r());
          }),
      });
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** The text of a tool result block, whatever shape it takes. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : c?.text ?? c?.output ?? JSON.stringify(c))).join('\n');
  if (content && typeof content === 'object') return content.text ?? content.output ?? JSON.stringify(content);
  return String(content ?? '');
}

// ---------------------------------------------------------------- Anthropic Messages (Claude Code)

export function claudeServer(script, { lifeMs = 120_000 } = {}) {
  return listen(async (req, res, body, record) => {
    if (req.method !== 'POST' || !/\/v1\/messages(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'fake server' } }));
      return;
    }
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const toolNames = (body?.tools ?? []).map((t) => t.name);
    // Side requests (titles, summaries) carry no tools: answer them with text.
    const main = toolNames.length > 0;
    let step = 0;
    const results = [];
    for (const m of messages) {
      if (!Array.isArray(m.content)) continue;
      for (const c of m.content) {
        if (m.role === 'assistant' && c.type === 'tool_use') step++;
        if (m.role === 'user' && c.type === 'tool_result') results.push({ id: c.tool_use_id, isError: c.is_error === true, text: textOf(c.content) });
      }
    }
    if (main) {
      record.tools ??= toolNames;
      record.results = results;
    }
    const call = main ? script[step] : undefined;
    if (call?.delayMs) await sleep(call.delayMs);
    const id = `msg_${record.requests.length}`;
    const start = ['message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: body?.model ?? 'claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }];
    if (call) {
      sse(res, [
        start,
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${step}`, name: call.tool, input: {} } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }],
        ['message_stop', { type: 'message_stop' }],
      ]);
    } else {
      sse(res, [
        start,
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }],
        ['message_stop', { type: 'message_stop' }],
      ]);
    }
  }, lifeMs);
}

// ---------------------------------------------------------------- OpenAI Responses (Codex)

export function codexServer(script, { lifeMs = 120_000 } = {}) {
  return listen(async (req, res, body, record) => {
    if (req.method !== 'POST' || !/\/responses(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'fake server' } }));
      return;
    }
    const input = Array.isArray(body?.input) ? body.input : [];
    const results = [];
    for (const item of input) {
      if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') results.push({ id: item.call_id, text: textOf(item.output) });
    }
    record.tools ??= (body?.tools ?? []).map((t) => t.name ?? t.type);
    record.results = results;
    const step = results.length;
    const call = script[step];
    if (call?.delayMs) await sleep(call.delayMs);
    const rid = `resp_${record.requests.length}`;
    let item;
    if (!call) item = { type: 'message', role: 'assistant', id: `msg_${rid}`, content: [{ type: 'output_text', text: 'done' }] };
    else if (call.custom) item = { type: 'custom_tool_call', id: `ctc_${step}`, call_id: `call_${step}`, name: call.tool, input: call.input, status: 'completed' };
    else item = { type: 'function_call', id: `fc_${step}`, call_id: `call_${step}`, name: call.tool, arguments: JSON.stringify(call.input), status: 'completed' };
    sse(res, [
      ['response.created', { type: 'response.created', response: { id: rid } }],
      ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
      ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
      ['response.completed', { type: 'response.completed', response: { id: rid, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } }],
    ]);
  }, lifeMs);
}

// ---------------------------------------------------------------- Gemini API (Gemini CLI)

/** A value that fits a (Gemini / JSON) schema, for the CLI's side requests (router, next speaker). */
function fit(schema, key) {
  if (!schema || typeof schema !== 'object') return 'x';
  if (key === 'next_speaker') return 'user';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    if (key === 'model_choice') return schema.enum.find((e) => /flash/i.test(e)) ?? schema.enum[0];
    return schema.enum[0];
  }
  const type = String(schema.type ?? '').toLowerCase();
  if (type === 'object' || schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fit(v, k);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return schema.minimum ?? 1;
  return 'x';
}

export function geminiServer(script, { lifeMs = 120_000 } = {}) {
  return listen(async (req, res, body, record) => {
    const url = req.url ?? '';
    if (/:countTokens/.test(url)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    if (req.method !== 'POST' || !/:(streamGenerateContent|generateContent)/.test(url)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: 'fake server', status: 'NOT_FOUND' } }));
      return;
    }
    const stream = /:streamGenerateContent/.test(url);
    const config = body?.generationConfig ?? body?.config ?? {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    const decls = (body?.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
    let candidate;
    if (schema || decls.length === 0) {
      // A side request: JSON that fits its schema, or a short text.
      const text = schema ? JSON.stringify(fit(schema)) : 'done';
      candidate = { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 };
    } else {
      const results = [];
      for (const c of body?.contents ?? []) {
        for (const p of c.parts ?? []) {
          if (p.functionResponse) results.push({ id: p.functionResponse.id, name: p.functionResponse.name, text: textOf(p.functionResponse.response?.output ?? p.functionResponse.response?.error ?? p.functionResponse.response) });
        }
      }
      record.tools ??= decls;
      record.results = results;
      const step = results.length;
      const call = script[step];
      if (call?.delayMs) await sleep(call.delayMs);
      candidate = call
        ? { content: { role: 'model', parts: [{ functionCall: { name: call.tool, args: call.input } }] }, finishReason: 'STOP', index: 0 }
        : { content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', index: 0 };
    }
    const answer = { candidates: [candidate], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'gemini-2.5-flash' };
    if (stream) {
      sse(res, [[undefined, answer]]);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    }
  }, lifeMs);
}
