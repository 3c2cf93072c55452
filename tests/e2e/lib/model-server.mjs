// SPDX-License-Identifier: GPL-3.0-or-later
//
// A scripted model for real agent CLIs: an HTTP server on 127.0.0.1 that
// speaks enough of each vendor's API for its CLI (OpenAI Responses for
// Codex, OpenAI Chat Completions for OpenCode, Copilot CLI and Qwen Code,
// Anthropic Messages for Claude Code, the Gemini API for Gemini CLI), always
// streaming.
//
// The "model" follows one script: open a tab on the page, read it with
// browser_snapshot, click the button "Save" by the ref it found there, take
// a screenshot, click a ref that does not exist, then answer. Every value it
// passes on (the browserId, the ref) is read from the tool results the CLI
// sent back, exactly as a model would have to. Each tool result it gets is
// recorded, normalised to { tool, text, images }, so the test can check
// what the model saw. Where the CLI defers its MCP tools behind a search
// tool, the model searches first, as a real one must (findDeferred).

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
// mcp__tabwright__browser_snapshot (Claude Code, Qwen Code),
// tabwright_browser_snapshot (OpenCode), mcp_tabwright_browser_snapshot
// (Gemini CLI), tabwright-browser_snapshot (Copilot CLI),
// mcp__tabwright.browser_snapshot (Codex).
function offered(names, tool) {
  return names.find((name) => name === tool || name.endsWith(`_${tool}`) || name.endsWith(`.${tool}`) ||
    name.endsWith(`-${tool}`));
}

// Some CLIs defer MCP tools: the model is offered only their names, in a
// message, and a search tool that loads them (Claude Code's ToolSearch, Qwen
// Code's tool_search). Qwen Code then wants a found tool called through its
// tool_call; Claude Code offers it like any other from the next request on.
const CODEX_SEARCH = 'codex:tool_search';
const SEARCH_TOOLS = ['ToolSearch', 'tool_search', CODEX_SEARCH];
const CALL_TOOLS = ['tool_call'];

export function isSearch(name) {
  return SEARCH_TOOLS.includes(name);
}

// Every string in a request body, one a line.
function strings(value, out = []) {
  if (typeof value === 'string')
    out.push(value);
  else if (value && typeof value === 'object')
    for (const inner of Object.values(value))
      strings(inner, out);
  return out;
}

// The deferred tool names a request lists, e.g. mcp__tabwright__browser_click.
function deferredNames(body) {
  return [...new Set(strings(body).join('\n').match(/\b\w+__browser_[a-z_]+\b/g) ?? [])];
}

// The tool calls the model made, in order, each with what the CLI sent back
// for it: searches apart, and calls through tool_call under the name of the
// tool they called.
function splitResults(results) {
  const searches = [];
  const steps = [];
  for (const result of results) {
    if (isSearch(result.name))
      searches.push({ ...result, query: result.args?.query });
    else if (CALL_TOOLS.includes(result.name))
      steps.push({ ...result, name: result.args?.name, via: result.name });
    else
      steps.push(result);
  }
  return { searches, steps };
}

function fail(state, message) {
  state.failures.push(message);
  return { text: `FAILED: ${message}` };
}

// What a model does when the tool it needs is deferred: it asks the search
// tool for it by the name the CLI listed ("select:NAME,…"), loading at once
// every tool the rest of its plan needs, as the search tool's description
// tells it to. A search that does not bring the tool back is a failure that
// says what the search returned.
function findDeferred(state, request, step, remaining) {
  const { names, deferred, searches } = request;
  const search = names.find(isSearch);
  const wanted = offered(deferred, step.tool);
  if (!search || !wanted) {
    return fail(state, `the CLI offers no ${step.tool}; it offers ${names.join(', ')}` +
      (deferred.length > 0 ? `, and lists as deferred ${deferred.join(', ')}` : ''));
  }
  const asked = searches.filter((s) => String(s.query ?? '').includes(wanted));
  const found = asked.find((s) => s.text.includes(wanted));
  if (!found) {
    if (asked.length > 0)
      return fail(state, `${search} "${asked[0].query}" did not bring back ${wanted}; it returned: ${asked[0].text}`);
    const plan = [...new Set(remaining.map((s) => offered(deferred, s.tool)).filter(Boolean))];
    return { name: search, args: { query: `select:${plan.join(',')}` } };
  }
  const caller = names.find((n) => CALL_TOOLS.includes(n));
  if (!caller) {
    return fail(state, `${search} brought back ${wanted}, but the CLI still offers no ${step.tool} ` +
      `and no tool to call it through; it offers ${names.join(', ')}; the search returned: ${found.text}`);
  }
  return { name: caller, args: { name: wanted }, call: true };
}

// The other script: search the CLI's deferred tools with each of
// state.queries in turn, in plain words, as a model that does not know the
// tools' names would, then answer.
function nextSearch(state, { names, searches }) {
  const search = names.find(isSearch);
  if (!search)
    return fail(state, `the CLI offers no tool search; it offers ${names.join(', ')}`);
  if (searches.length >= state.queries.length)
    return { text: `Done: ${searches.length} searches.` };
  return { name: search, args: { query: state.queries[searches.length], max_results: 5 } };
}

// Decides the next turn from the tool results so far: a tool call
// { name, args }, or a final { text }.
function nextTurn(state, request) {
  if (state.queries)
    return nextSearch(state, request);
  const { names, steps } = request;
  const step = STEPS[steps.length];
  if (!step)
    return { text: 'Done: I clicked Save, saw the screenshot and the error for a bad ref.' };
  let turn = offered(names, step.tool) ? { name: offered(names, step.tool) } : null;
  if (!turn) {
    turn = findDeferred(state, request, step, STEPS.slice(steps.length));
    if (turn.text !== undefined || !turn.call)
      return turn;
  }
  try {
    const args = step.args(context(state.pageUrl, steps));
    return turn.call ? { name: turn.name, args: { ...turn.args, arguments: args } } : { name: turn.name, args };
  } catch (error) {
    if (!(error instanceof ScriptError))
      throw error;
    return fail(state, error.message);
  }
}

// The arguments of an OpenAI function call: a JSON string.
function parseArgs(text) {
  try {
    return JSON.parse(text ?? '{}');
  } catch {
    return {};
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
// expects calls to name both. Where it defers them (models that support its
// tool search), it offers a tool of type tool_search instead, names the
// deferred namespaces in a message ("Deferred tool namespaces: -
// mcp__tabwright: …"), and answers a tool_search_call with a
// tool_search_output that holds the tools it found, best first, in their
// namespaces; the model sees them as one name a line, e.g.
// "tool: mcp__tabwright__browser_snapshot".
function responsesRequest(body) {
  const names = [];
  for (const tool of body.tools ?? []) {
    if (tool.type === 'function')
      names.push(tool.name);
    else if (tool.type === 'tool_search')
      names.push(CODEX_SEARCH);
    else if (tool.type === 'namespace')
      for (const inner of tool.tools ?? [])
        names.push(`${tool.name}.${inner.name}`);
  }
  const results = [];
  const calls = new Map();
  for (const item of body.input ?? []) {
    if (item.type === 'function_call')
      calls.set(item.call_id, { name: item.namespace ? `${item.namespace}.${item.name}` : item.name, args: parseArgs(item.arguments) });
    else if (item.type === 'function_call_output')
      results.push({ ...calls.get(item.call_id), ...openaiParts(item.output) });
    else if (item.type === 'tool_search_call')
      calls.set(item.call_id, { name: CODEX_SEARCH, args: typeof item.arguments === 'string' ? parseArgs(item.arguments) : item.arguments ?? {} });
    else if (item.type === 'tool_search_output')
      results.push({ ...calls.get(item.call_id), text: searchOutputText(item.tools), images: [] });
  }
  const deferred = strings(body.input ?? []).join('\n').match(/^Deferred tool namespaces:\n(?:- .*\n?)*/m)?.[0] ?? '';
  return { names, results, deferredNamespaces: [...deferred.matchAll(/^- ([\w-]+):/gm)].map((m) => m[1]) };
}

// The tools of a Codex tool_search_output, in its order, one a line.
function searchOutputText(tools) {
  const lines = [];
  for (const tool of tools ?? []) {
    if (tool.type === 'namespace')
      for (const inner of tool.tools ?? [])
        lines.push(`tool: ${tool.name}__${inner.name}`);
    else
      lines.push(`tool: ${tool.name}`);
  }
  return lines.join('\n');
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
  let item;
  if (turn.text !== undefined) {
    item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }] };
  } else if (turn.name === CODEX_SEARCH) {
    // Codex's tool search takes { query, limit }, as an object.
    const { query, max_results: limit } = turn.args;
    item = { type: 'tool_search_call', id: `ts_${n}`, call_id: `call_${n}`, status: 'completed', execution: 'client',
      arguments: limit === undefined ? { query } : { query, limit } };
  } else {
    item = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, ...namespaced(turn.name),
      arguments: JSON.stringify(turn.args), status: 'completed' };
  }
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
        calls.set(call.id, { name: call.function?.name, args: parseArgs(call.function?.arguments) });
    if (message.role === 'tool')
      results.push({ ...calls.get(message.tool_call_id), ...openaiParts(message.content) });
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
        calls.set(block.id, { name: block.name, args: block.input ?? {} });
      if (block.type !== 'tool_result')
        continue;
      const result = { ...calls.get(block.tool_use_id), text: '', images: [], isError: block.is_error === true };
      const parts = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content ?? [];
      // A tool search may answer with references to the tools it found.
      result.text = parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool_reference' ? `tool_reference: ${p.tool_name}` : null))
        .filter((t) => t !== null).join('\n');
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
  const calls = [];
  for (const content of body.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (part.functionCall) {
        calls.push({ name: part.functionCall.name, args: part.functionCall.args ?? {} });
      } else if (part.functionResponse) {
        const response = part.functionResponse.response ?? {};
        const text = typeof response.output === 'string' ? response.output
          : typeof response.content === 'string' ? response.content : JSON.stringify(response);
        results.push({ name: part.functionResponse.name, args: calls[results.length]?.args ?? {}, text, images: [] });
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

// A side request that asks for JSON of a schema (Gemini CLI's model
// routing asks for a complexity score) gets an object of that schema: text
// it cannot parse, it asks again after a back-off, for a minute and more.
function exampleOf(schema) {
  switch (String(schema?.type ?? '').toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, exampleOf(v)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return schema?.enum?.[0] ?? 'Tabwright check';
  }
}

function sideAnswer(body) {
  const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
  return schema ? JSON.stringify(exampleOf(schema)) : 'Tabwright check';
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
// results the CLI sent (the last request holds them all), state.searches
// the tool searches the model made ({ query, text }), state.failures what
// went against the script, state.requests every path asked for,
// state.offered the tool names of the last request with the browser tools,
// state.deferred the tool names it listed for search only, state.prompts
// every string of each request with the browser tools (system prompt,
// messages, tool definitions), one a line, to look for what the CLI passed
// on to the model.
// release() lets the first scripted turn go; until then the model holds it,
// and state.waiting says that the CLI has asked. With @queries, the model
// only searches the CLI's deferred tools with each of them (nextSearch).
export async function startModelServer({ pageUrl, queries = null }) {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const state = { pageUrl, queries, requests: [], results: [], searches: [], failures: [], offered: [], deferred: [], prompts: [], turns: 0, finished: false, gate, waiting: false };

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

    const { names, results, deferredNamespaces = [] } = protocol.parse(body);
    const deferred = deferredNames(body);
    // Side requests (titles, summaries) come without the browser tools,
    // offered or deferred: answer them with text, outside the script.
    const searchable = names.some(isSearch) &&
      (offered(deferred, 'browser_snapshot') || deferredNamespaces.some((ns) => ns.endsWith('tabwright')));
    if (!offered(names, 'browser_snapshot') && !searchable) {
      protocol.reply(res, { text: sideAnswer(body) }, ++state.turns);
      return;
    }
    state.offered = names;
    state.deferred = deferred;
    state.prompts.push(strings(body).join('\n'));
    // The test may hold the first scripted turn until it has looked at the
    // running CLI.
    if (results.length === 0) {
      state.waiting = true;
      await state.gate;
    }
    const { searches, steps } = splitResults(results);
    state.searches = searches;
    state.results = steps.map((r, i) => ({ ...r, tool: STEPS[i]?.tool }));
    const turn = nextTurn(state, { names, deferred, searches, steps: state.results });
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
