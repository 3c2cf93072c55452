// SPDX-License-Identifier: GPL-3.0-or-later
//
// MCP helpers for the end-to-end tests: an official SDK client connected to
// a running Tabwright, and checks that every tool result keeps the promises
// of DESIGN.md (text and structuredContent agree, error text reads as a
// failure naming its code, then says what to do next).

import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

import { trackCall } from './stuck.mjs';
import { expectEvent } from './wait.mjs';

export async function connectClient(app, name = 'tabwright-e2e') {
  const transport = new StreamableHTTPClientTransport(new URL(app.url), {
    requestInit: { headers: { Authorization: `Bearer ${app.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  // Every request is counted while in flight, so a test stopped for taking
  // too long says which call it was waiting for.
  const request = client.request.bind(client);
  client.request = (message, ...rest) =>
    trackCall(`${message.method} ${JSON.stringify(message.params ?? {}).slice(0, 300)}`, request(message, ...rest));
  return client;
}

export function resultText(result) {
  assert.ok(Array.isArray(result.content), 'the result has a content array');
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

// Calls a tool that must succeed; returns its structuredContent and text.
export async function callOk(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = resultText(result);
  assert.notEqual(result.isError, true, `${name} failed: ${text}`);
  assert.equal(typeof result.structuredContent, 'object', `${name} returns structuredContent`);
  return { result, text, data: result.structuredContent };
}

// Calls a tool that must fail with @code, once, through the SDK's own
// callTool(), and checks the error's shape.
export async function callError(client, name, args, code) {
  // Clients built on the official SDK (Claude Code among them) validate
  // structuredContent against the tool's outputSchema even on errors: an
  // outputSchema that does not admit {error} turns every tool error into a
  // protocol error that hides the message from the model. callTool() is
  // request() and that check.
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (thrown) {
    assert.fail(`the MCP SDK client rejects the ${code} result of ${name}: ${thrown.message}. ` +
      'The outputSchema must also admit the error object {error: {code, message, retryable}}.');
  }
  const text = resultText(result);
  assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) should fail with ${code}, got: ${text}`);
  const error = result.structuredContent?.error;
  assert.ok(error, `${name} error result carries structuredContent.error: ${JSON.stringify(result)}`);
  assert.equal(error.code, code, `${name}(${JSON.stringify(args)}) error code`);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0, 'the error message is not empty');
  assert.equal(typeof error.retryable, 'boolean', 'retryable is a boolean');
  // OpenCode passes the model the text alone, without isError: the text
  // itself must read as a failure, name the code, and say what to do next.
  assert.ok(text.startsWith(`Error: ${code} — `), `error text reads as a failure naming its code: ${text}`);
  const [first, next, ...rest] = text.split('\n');
  assert.equal(first, `Error: ${code} — ${error.message}`, 'the error text and structured error say the same');
  assert.ok(next && next.length > 0 && rest.length === 0, `a second line says what to do next: ${text}`);
  return { result, text, error };
}

// Calls a tool whose result has no structuredContent (an image, a long text
// for reading); returns the result and its text.
export async function callText(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = resultText(result);
  assert.notEqual(result.isError, true, `${name} failed: ${text}`);
  assert.equal(result.structuredContent, undefined, `${name} returns no structuredContent`);
  return { result, text };
}

// Opens a tab at @url; resolves with its browserId.
export async function openTab(client, url) {
  const { data } = await callOk(client, 'browser_new_tab', { url });
  return data.browserId;
}

// The snapshot text of tab @browserId, taken with the further arguments
// @extra (diff, interactive, a frame); it must succeed.
export async function snapshotIn(client, browserId, extra = {}) {
  return (await callText(client, 'browser_snapshot', { browserId, ...extra })).text;
}

// Runs @fn in the page of tab @browserId; resolves with its result.
export async function evaluateIn(client, browserId, fn) {
  const { data } = await callOk(client, 'browser_evaluate', { browserId, function: fn });
  return data.result;
}

// The value of a labelled line "label: value" of a result text: the way
// text-only clients (Gemini CLI, OpenCode) learn browserId, url, path.
export function textField(text, label) {
  const line = text.split('\n').find((l) => l.startsWith(`${label}: `));
  assert.ok(line, `the text has a "${label}:" line: ${text}`);
  return line.slice(label.length + 2);
}

// The structured values that a person reads must appear in the text too.
export function assertTextMentions(text, values) {
  for (const value of values) {
    if (value === undefined || value === null)
      continue;
    assert.ok(text.includes(String(value)), `text mentions ${JSON.stringify(value)}: ${text}`);
  }
}

// The ref of the first snapshot line that contains @needle, as an agent
// reads it off the snapshot text.
export function refIn(text, needle) {
  for (const line of text.split('\n')) {
    if (!line.includes(needle))
      continue;
    const m = / (@(?:f\d+)?e\d+)/.exec(line);
    if (m)
      return m[1];
  }
  assert.fail(`no ref for ${needle} in:\n${text}`);
}

// Calls @name as a client that gives up on it: the abort goes out once the
// server has the call, which its first progress notification proves (only
// for tools that report progress at once, such as browser_handoff), never
// on a timer that a slow machine could beat. Checks that the call then
// rejects with the SDK's own cancellation, carrying @reason, and not with
// an answer or error of the server's. Returns the first notification.
export async function callAndAbandon(client, name, args, reason = 'changed my mind') {
  const controller = new AbortController();
  const progress = expectEvent(`the first progress notification of ${name}`);
  const call = client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema,
    { signal: controller.signal, onprogress: (p) => progress.happened(p), timeout: 60000 });
  // Should the call end first, the wait fails with its outcome instead of
  // running into its deadline.
  const ended = call.then(
    (result) => { throw new Error(`${name} answered before its first progress: ${JSON.stringify(result)}`); },
    (error) => { throw new Error(`${name} failed before its first progress: ${error}`); });
  ended.catch(() => {});
  const first = await Promise.race([progress.wait(), ended]);
  controller.abort(reason);
  await assert.rejects(call, (error) => {
    assert.ok(error instanceof McpError, `the abandoned call rejects with an McpError: ${error}`);
    assert.equal(error.code, ErrorCode.RequestTimeout, `the SDK's cancellation code: ${error}`);
    assert.match(error.message, new RegExp(reason), 'the rejection carries the reason the client gave');
    return true;
  });
  return first;
}
