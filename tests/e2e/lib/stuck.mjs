// SPDX-License-Identifier: GPL-3.0-or-later
//
// What an end-to-end test was waiting for when meson stopped it for taking
// too long. meson ends a test that runs past its timeout with SIGTERM, and
// node:test then prints nothing of the test still running, so this prints
// the tool calls still in flight and the output of every app still up.

const pendingCalls = new Set();
const logSources = new Set();

// Counts @promise as a tool call in flight until it settles.
export function trackCall(label, promise) {
  const entry = { label, since: Date.now() };
  pendingCalls.add(entry);
  const done = () => pendingCalls.delete(entry);
  promise.then(done, done);
  return promise;
}

// Adds a running app, whose output @source() returns, to what is printed;
// the returned function takes it away again.
export function addLogSource(name, source) {
  const entry = { name, source };
  logSources.add(entry);
  return () => logSources.delete(entry);
}

process.once('SIGTERM', () => {
  const now = Date.now();
  let report = 'The test was stopped from outside (SIGTERM).\n';
  if (pendingCalls.size === 0)
    report += 'No tool call was in flight.\n';
  for (const { label, since } of pendingCalls)
    report += `In flight for ${now - since} ms: ${label}\n`;
  for (const { name, source } of logSources)
    report += `${name} was still running; its output:\n${source()}\n`;
  process.stderr.write(report);
  // The exit handlers kill the apps and buses still running.
  process.exit(1);
});
