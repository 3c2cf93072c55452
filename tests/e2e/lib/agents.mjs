// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the tests of real agent CLIs share: waiting for what the CLI does,
// finding the process the app started for it and the token it holds, and
// whether the server still takes that token.

import fs from 'node:fs';
import path from 'node:path';

import { ACCEPT, PROTOCOL_VERSION, request } from './raw-http.mjs';
import { waitUntil } from './wait.mjs';

// @word quoted for sh, when it needs to be.
export function shellQuote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

// The --launch-agent value of an agent of @preset that only hands its token
// over, in @file, then waits @sleepSeconds to be ended with the app: the
// test (or benchmark) drives that token through an SDK client.
export function tokenAgent(file, preset = 'custom', sleepSeconds = 600) {
  const script = `printf %s "$TABWRIGHT_MCP_TOKEN" > ${shellQuote(file + '.part')} && ` +
    `mv ${shellQuote(file + '.part')} ${shellQuote(file)} && exec sleep ${sleepSeconds}`;
  return `${preset}:sh -c ${shellQuote(script)}`;
}

// Writes @presets (agent preset objects) as the user's own presets in the
// config folder of @dirs (makeAppDirs()).
export function writePresets(dirs, presets) {
  fs.mkdirSync(path.join(dirs.config, 'tabwright'), { recursive: true });
  fs.writeFileSync(path.join(dirs.config, 'tabwright', 'agent-presets.json'), JSON.stringify({ presets }));
}

// The token a tokenAgent() wrote, or null while there is none.
export function readToken(file) {
  try {
    return fs.readFileSync(file, 'utf8') || null;
  } catch {
    return null;
  }
}

// How long a CLI may take for one step of its script.
export const AGENT_WAIT_MS = 240000;

// Resolves with the first truthy value of @check(), polled; fails after
// @timeoutMs (AGENT_WAIT_MS unless given) with what @app printed.
export function waitFor(what, check, app, timeoutMs = AGENT_WAIT_MS) {
  return waitUntil(what, check, {
    timeoutMs,
    intervalMs: 100,
    detail: app ? () => `Tabwright said:\n${app.log()}` : undefined,
  });
}

// The HTTP status of an initialize request with @token.
export async function initializeStatus(url, token) {
  const reply = await request(url, {
    headers: { Authorization: `Bearer ${token}`, Accept: ACCEPT, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    }),
  });
  return reply.status;
}

// The user id a process runs as.
export function processUid(pid) {
  return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

// A running process the app started for its endpoint @url that holds a
// token (the CLI, or the shell around it): { pid, token, uid }, or null.
export function agentProcess(url) {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid))
      continue;
    let environ;
    let uid;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      uid = processUid(pid);
    } catch {
      continue;
    }
    if (!environ.includes(`TABWRIGHT_MCP_URL=${url}`))
      continue;
    const entry = environ.find((e) => e.startsWith('TABWRIGHT_MCP_TOKEN='));
    if (entry)
      return { pid: Number(pid), token: entry.slice('TABWRIGHT_MCP_TOKEN='.length), uid };
  }
  return null;
}
