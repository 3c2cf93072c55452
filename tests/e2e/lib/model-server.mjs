// SPDX-License-Identifier: GPL-3.0-or-later
//
// A scripted model for real agent CLIs: an HTTP server on 127.0.0.1 that
// speaks enough of each vendor's API for its CLI (OpenAI Responses for
// Codex, OpenAI Chat Completions for OpenCode, Anthropic Messages for
// Claude Code, the Gemini API for Gemini CLI), always streaming.
//
// The "model" follows one script: open a tab on the page, read it with
// browser_snapshot, click the button "Save" by the ref it found there, take
// a screenshot, click a ref that does not exist, then answer. Every value it
// passes on (the browserId, the ref) is read from the tool results the CLI
// sent back, exactly as a model would have to. Each tool result it gets is
// recorded, normalised to { tool, text, images }, so the test can check
// what the model saw.

import http from 'node:http';

export const BAD_REF = '@e9999';

// The steps of the script; each reads what it needs from earlier results.
const STEPS = [
  { tool: 'browser_new_tab', args: (ctx) => ({ url: ctx.pageUrl }) },
  {
    tool: 'browser_snapshot',
    args: (ctx) => ({ browserId: ctx.field(0, 'browserId') }),
  },
  {
    tool: 'browser_click',
    args: (ctx) => ({ browserId: ctx.field(0, 'browserId'), ref: ctx.refOf(1, 'button "Save"') }),
  },
  { tool: 'browser_screenshot', args: (ctx) => ({ browserId: ctx.field(0, 'browserId') }) },
  { tool: 'browser_click', args: (ctx) => ({ browserId: ctx.field(0, 'browserId'), ref: BAD_REF }) },
];

class ScriptError extends Error {}

function context(pageUrl, results) {
  return {
    pageUrl,
    // A field of result @i: a labelled line "label: value" (what text-only
    // clients pass on) or a JSON member (Codex and Claude Code pass the JSON
    // of structuredContent instead of the text).
    field(i, label) {
      const text = results[i]?.text ?? '';
      const match = text.match(new RegExp(`^${label}: (\\S+)$`, 'm')) ??
        text.match(new RegExp(`"${label}":\\s*"([^"]+)"`));
      if (!match)
        throw new ScriptError(`no "${label}:" line in the result of ${results[i]?.tool}: ${text}`);
      return match[1];
    },
    refOf(i, what) {
      const text = results[i]?.text ?? '';
      const line = text.split('\n').find((l) => l.includes(what));
      const match = line?.match(/@e\d+/);
      if (!match)
        throw new ScriptError(`no ref for ${what} in the snapshot: ${text}`);
      return match[0];
    },
  };
}

// The tool name under which the CLI offers a Tabwright tool, e.g.
// mcp__tabwright__browser_snapshot (Claude Code), tabwright_browser_snapshot
// (OpenCode), mcp_tabwright_browser_snapshot (Gemini CLI).
function offered(names, tool) {
  return names.find((name) => name === tool || name.endsWith(`_${tool}`) || name.endsWith(`.${tool}`));
}

// Decides the next turn from the tool results so far: a tool call
// { name, args }, or a final { text }.
function nextTurn(state, names, results) {
  const step = STEPS[results.length];
  if (!step)
    return { text: 'Done: I clicked Save, saw the screenshot and the error for a bad ref.' };
  const name = offered(names, step.tool);
  if (!name) {
    state.failures.push(`the CLI offers no ${step.tool}; it offers ${names.join(', ')}`);
    return { text: `FAILED: no ${step.tool} tool` };
  }
  try {
    return { name, args: step.args(context(state.pageUrl, results)), tool: step.tool };
  } catch (error) {
    if (!(error instanceof ScriptError))
      throw error;
    state.failures.push(error.message);
    return { text: `FAILED: ${error.message}` };
  }
}

function imageOf(mimeType, data) {
  return { mimeType, bytes: Buffer.from(data, 'base64').length };
}

// OpenAI content of a tool output: a string, or parts.
function openaiParts(output) {
  const result = { text: '', images: [] };
  const texts = [];
  if (typeof output === 'string') {
    texts.push(output);
  } else if (Array.isArray(output)) {
    for (const part of output) {
      if (part.type === 'input_text' || part.type === 'text' || part.type === 'output_text')
        texts.push(part.text);
      else if (part.type === 'input_image' || part.type === 'image_url') {
        const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
        const match = /^data:([^;]+);base64,(.*)$/s.exec(url ?? '');
        if (match)
          result.images.push(imageOf(match[1], match[2]));
      }
    }
  }
  result.text = texts.join('\n');
  return result;
}

// Protocols: each turns a request body into { names, results } and a turn
// into a streamed reply.

// Codex offers an MCP server's tools in a namespace (mcp__tabwright) and
// expects calls to name both.
function responsesRequest(body) {
  const names = [];
  for (const tool of body.tools ?? []) {
    if (tool.type === 'function')
      names.push(tool.name);
    else if (tool.type === 'namespace')
      for (const inner of tool.tools ?? [])
        names.push(`${tool.name}.${inner.name}`);
  }
  const results = [];
  const calls = new Map();
  for (const item of body.input ?? []) {
    if (item.type === 'function_call')
      calls.set(item.call_id, item.name);
    else if (item.type === 'function_call_output')
      results.push({ name: calls.get(item.call_id), ...openaiParts(item.output) });
  }
  return { names, results };
}

function namespaced(name) {
  const dot = name.indexOf('.');
  return dot < 0 ? { name } : { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

function sse(res, events) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  for (const [event, data] of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
}

function responsesReply(res, turn, n) {
  const id = `resp_${n}`;
  const item = turn.text !== undefined
    ? { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }] }
    : { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, ...namespaced(turn.name),
        arguments: JSON.stringify(turn.args), status: 'completed' };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(res, [
    ['response.created', { type: 'response.created', response: { id, status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { id, status: 'completed', output: [item], usage } }],
  ]);
}

function chatRequest(body) {
  const names = (body.tools ?? []).map((t) => t.function?.name).filter(Boolean);
  const results = [];
  const calls = new Map();
  for (const message of body.messages ?? []) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? [])
        calls.set(call.id, call.function?.name);
    if (message.role === 'tool')
      results.push({ name: calls.get(message.tool_call_id), ...openaiParts(message.content) });
    // Some clients send a tool's images in a user message after it.
    if (message.role === 'user' && Array.isArray(message.content) && results.length > 0) {
      const extra = openaiParts(message.content);
      results[results.length - 1].images.push(...extra.images);
    }
  }
  return { names, results };
}

function chatReply(res, turn, n) {
  const base = { id: `chatcmpl_${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'scripted' };
  const delta = turn.text !== undefined
    ? { role: 'assistant', content: turn.text }
    : { role: 'assistant', tool_calls: [{ index: 0, id: `call_${n}`, type: 'function',
        function: { name: turn.name, arguments: JSON.stringify(turn.args) } }] };
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: turn.text !== undefined ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }],
    [null, '[DONE]'],
  ]);
}

function anthropicRequest(body) {
  const names = (body.tools ?? []).map((t) => t.name).filter(Boolean);
  const results = [];
  const calls = new Map();
  for (const message of body.messages ?? []) {
    if (!Array.isArray(message.content))
      continue;
    for (const block of message.content) {
      if (block.type === 'tool_use')
        calls.set(block.id, block.name);
      if (block.type !== 'tool_result')
        continue;
      const result = { name: calls.get(block.tool_use_id), text: '', images: [], isError: block.is_error === true };
      const parts = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content ?? [];
      result.text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
      for (const p of parts)
        if (p.type === 'image' && p.source?.type === 'base64')
          result.images.push(imageOf(p.source.media_type, p.source.data));
      results.push(result);
    }
  }
  return { names, results };
}

function anthropicReply(res, turn, n, model) {
  const events = [['message_start', { type: 'message_start', message: { id: `msg_${n}`, type: 'message', role: 'assistant',
    model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }]];
  if (turn.text !== undefined) {
    events.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } }]);
  } else {
    events.push(['content_block_start', { type: 'content_block_start', index: 0,
      content_block: { type: 'tool_use', id: `toolu_${n}`, name: turn.name, input: {} } }]);
    events.push(['content_block_delta', { type: 'content_block_delta', index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.args) } }]);
  }
  events.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: turn.text !== undefined ? 'end_turn' : 'tool_use',
    stop_sequence: null }, usage: { output_tokens: 5 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  sse(res, events);
}

function geminiRequest(body) {
  const names = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name);
  const results = [];
  for (const content of body.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (part.functionResponse) {
        const response = part.functionResponse.response ?? {};
        const text = typeof response.output === 'string' ? response.output
          : typeof response.content === 'string' ? response.content : JSON.stringify(response);
        results.push({ name: part.functionResponse.name, text, images: [] });
        for (const inner of part.functionResponse.parts ?? [])
          if (inner.inlineData)
            results[results.length - 1].images.push(imageOf(inner.inlineData.mimeType, inner.inlineData.data));
      } else if (part.inlineData && results.length > 0) {
        results[results.length - 1].images.push(imageOf(part.inlineData.mimeType, part.inlineData.data));
      } else if (typeof part.text === 'string' && results.length > 0 && content.role !== 'model' &&
                 results[results.length - 1].afterText === undefined) {
        // Gemini CLI sends an MCP result's text blocks as parts next to the
        // functionResponse.
        results[results.length - 1].text += `\n${part.text}`;
      }
    }
  }
  return { names, results };
}

function geminiReply(res, turn, streaming) {
  const part = turn.text !== undefined ? { text: turn.text } : { functionCall: { name: turn.name, args: turn.args } };
  const reply = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'scripted',
  };
  // generateContent (Gemini CLI's model routing asks it on the side) wants
  // one JSON object; streamGenerateContent server-sent events.
  if (!streaming) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(reply));
    return;
  }
  sse(res, [[null, reply]]);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// Starts the model. @pageUrl is the page the script opens. Resolves with
// { url, state, close() }; state.results holds, per model request, the tool
// results the CLI sent (the last request holds them all), state.failures
// what went against the script, state.requests every path asked for,
// state.offered the tool names of the last request with the browser tools.
// release() lets the first scripted turn go; until then the model holds it,
// and state.waiting says that the CLI has asked.
export async function startModelServer({ pageUrl }) {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const state = { pageUrl, requests: [], results: [], failures: [], offered: [], turns: 0, finished: false, gate, waiting: false };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    state.requests.push(`${req.method} ${url.pathname}`);
    let body = {};
    try {
      const raw = await readBody(req);
      body = raw ? JSON.parse(raw) : {};
    } catch {
      res.writeHead(400).end();
      return;
    }

    let protocol = null;
    if (req.method === 'POST' && url.pathname.endsWith('/responses'))
      protocol = { parse: responsesRequest, reply: responsesReply };
    else if (req.method === 'POST' && url.pathname.endsWith('/chat/completions'))
      protocol = { parse: chatRequest, reply: chatReply };
    else if (req.method === 'POST' && url.pathname.endsWith('/messages'))
      protocol = { parse: anthropicRequest, reply: (r, t, n) => anthropicReply(r, t, n, body.model ?? 'scripted') };
    else if (req.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(url.pathname))
      protocol = { parse: geminiRequest, reply: (r, t) => geminiReply(r, t, url.pathname.endsWith(':streamGenerateContent')) };

    if (!protocol) {
      // Model lists and the like: an empty but valid answer.
      res.writeHead(req.method === 'GET' ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
      return;
    }

    const { names, results } = protocol.parse(body);
    // Side requests (titles, summaries) come without the browser tools:
    // answer them with text, outside the script.
    if (!names.some((n) => n.endsWith('browser_snapshot'))) {
      protocol.reply(res, { text: 'Tabwright check' }, ++state.turns);
      return;
    }
    state.offered = names;
    // The test may hold the first scripted turn until it has looked at the
    // running CLI.
    if (results.length === 0) {
      state.waiting = true;
      await state.gate;
    }
    state.results = results.map((r, i) => ({ ...r, tool: STEPS[i]?.tool }));
    const turn = nextTurn(state, names, state.results);
    if (turn.text !== undefined)
      state.finished = true;
    protocol.reply(res, turn, ++state.turns);
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    release,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
