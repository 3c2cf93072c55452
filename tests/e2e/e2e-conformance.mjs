// SPDX-License-Identifier: GPL-3.0-or-later
//
// Runs the official MCP conformance suite against a real Tabwright, through
// a proxy that adds the bearer token. Every check of every scenario must
// pass; a warning counts as a failure.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startAuthProxy } from './lib/auth-proxy.mjs';
import { requirementOptions, run, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const CONFORMANCE = path.join(srcdir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

let app;
let proxy;

before(async () => {
  if (options.skip)
    return;
  app = await startTabwright();
  proxy = await startAuthProxy(app.url, app.token);
});

after(async () => {
  await proxy?.close();
  await app?.stop();
});

function readChecks(outputDir) {
  const files = [];
  for (const entry of fs.readdirSync(outputDir, { withFileTypes: true })) {
    const file = path.join(outputDir, entry.name, 'checks.json');
    if (entry.isDirectory() && fs.existsSync(file))
      files.push(file);
  }
  assert.equal(files.length, 1, `one checks.json in ${outputDir}`);
  return JSON.parse(fs.readFileSync(files[0], 'utf8'));
}

for (const scenario of SCENARIOS) {
  test(`conformance: ${scenario}`, options, async () => {
    const outputDir = fs.mkdtempSync(path.join(app.dirs.root, `conformance-${scenario}-`));
    const { code, stdout, stderr } = await run(process.execPath, [
      CONFORMANCE, 'server', '--url', proxy.url, '--scenario', scenario, '--output-dir', outputDir,
    ], { timeoutMs: 60000 });
    const report = `${stdout}\n${stderr}`;

    const checks = readChecks(outputDir);
    assert.ok(checks.length > 0, `the scenario ran checks:\n${report}`);
    const bad = checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO');
    assert.deepEqual(
      bad.map((check) => `${check.id}: ${check.status}: ${check.errorMessage ?? ''}`),
      [],
      `every check passes:\n${report}`);
    assert.ok(checks.some((check) => check.status === 'SUCCESS'), `at least one check succeeded:\n${report}`);
    assert.equal(code, 0, `conformance exits 0:\n${report}`);
  });
}
