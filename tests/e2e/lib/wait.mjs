// SPDX-License-Identifier: GPL-3.0-or-later
//
// Waiting in the end-to-end tests: for a condition, or for an event such as
// a call's first progress notification, always with a deadline, and failing
// with what was awaited when it passes, so a loaded machine makes a test
// slower, never wrong, and a hang says what never came.

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

// How long a condition of a page or the app may take to come true by
// default; generous, since only a bug makes a wait run out.
export const WAIT_MS = 30000;

// Resolves with the first truthy value of @check() (which may be async),
// polled every @intervalMs; fails after @timeoutMs saying it timed out
// waiting for @what, followed by what @detail() returns when given (the
// app's log, the last value seen).
export async function waitUntil(what, check, { timeoutMs = WAIT_MS, intervalMs = 50, detail } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value)
      return value;
    if (Date.now() > deadline)
      assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}${detail ? `:\n${detail()}` : ''}`);
    await sleep(intervalMs);
  }
}

// An event to wait for: `happened(value)` marks it; `wait()` resolves with
// the first value, at once when it came already, or rejects after
// @timeoutMs saying what never happened.
export function expectEvent(what, timeoutMs = WAIT_MS) {
  let resolve;
  let seen = false;
  let value;
  const promise = new Promise((r) => { resolve = r; });
  return {
    happened(v) {
      if (seen)
        return;
      seen = true;
      value = v;
      resolve(v);
    },
    async wait() {
      if (seen)
        return value;
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      });
      try {
        return await Promise.race([promise, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
