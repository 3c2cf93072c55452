// SPDX-License-Identifier: GPL-3.0-or-later
//
// The set-up most end-to-end test files share: the fixture server, a real
// Tabwright and an official MCP SDK client connected to it.

import { after, before } from 'node:test';

import { startFixtureServer } from './fixture-server.mjs';
import { connectClient } from './mcp.mjs';
import { startTabwright } from './tabwright.mjs';

// Starts the three; @tabwright are startTabwright()'s options, @clientName
// the name the client gives, @fixtures what starts the fixture server when
// not startFixtureServer. Resolves with { fixtures, app, client, close() };
// close() stops what started, the client first. A set-up that fails half way
// stops what it had started before it throws.
export async function startSession({ tabwright, clientName, fixtures = startFixtureServer } = {}) {
  const session = {};
  session.close = async () => {
    await session.client?.close().catch(() => {});
    await session.app?.stop();
    await session.fixtures?.close();
  };
  try {
    session.fixtures = await fixtures();
    session.app = await startTabwright(tabwright);
    session.client = await connectClient(session.app, clientName);
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}

// For the tests of a file: starts a session before them, unless @options
// (requirementOptions()) skip them, and closes it after them. Returns an
// object that has the session's fixtures, app and client once it started.
export function useSession(options, sessionOptions) {
  const session = {};
  before(async () => {
    if (!options.skip)
      Object.assign(session, await startSession(sessionOptions));
  });
  after(async () => {
    await session.close?.();
  });
  return session;
}
