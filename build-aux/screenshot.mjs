// SPDX-License-Identifier: GPL-3.0-or-later
//
// Takes the README's screenshot: starts Tabwright on the current (virtual)
// display with a scripted agent that works through a fixture page, and
// captures the screen with ImageMagick while the agent's last action is
// showing: the agent's terminal, the overlay's highlight and caption on the
// element it clicks, and the activity feed of every call.
//   node build-aux/screenshot.mjs OUTPUT.png     (build-aux/screenshot runs it)

import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startFixtureServer } from '../tests/e2e/lib/fixture-server.mjs';
import { connectClient } from '../tests/e2e/lib/mcp.mjs';
import { run, srcdir, startTabwright } from '../tests/e2e/lib/tabwright.mjs';
import { runDemo } from './demo-agent.mjs';

const output = path.resolve(process.argv[2] ?? path.join(srcdir, 'docs', 'screenshot.png'));
const bin = process.env.TABWRIGHT_BIN;

const fixtures = await startFixtureServer();
let app;
try {
  const help = await run(bin, ['--help-all'], { timeoutMs: 20000 });
  const canLaunch = help.stdout.includes('--launch-agent');
  const done = path.join(fs.mkdtempSync('/tmp/tabwright-shot-'), 'done');
  const env = { TABWRIGHT_DEMO_URL: fixtures.url('/react.html'), TABWRIGHT_DEMO_DONE: done };
  const agent = `custom:node ${path.join(srcdir, 'build-aux', 'demo-agent.mjs')}`;

  app = await startTabwright({ args: canLaunch ? ['--launch-agent', agent] : [], env });
  if (canLaunch) {
    const deadline = Date.now() + 60000;
    while (!fs.existsSync(done)) {
      if (Date.now() > deadline)
        throw new Error(`the demo agent did not get to its last action:\n${app.log()}`);
      await sleep(50);
    }
  } else {
    // An app without agent launching: drive it from outside instead.
    const client = await connectClient(app, 'Demo agent');
    await runDemo(client, env.TABWRIGHT_DEMO_URL, () => fs.writeFileSync(done, 'done\n'));
  }
  // The last action has started: its pointer glides to the checkbox and
  // the highlight and caption stay a moment after the click. Capture then.
  await sleep(800);

  // The screen is the window's default size; trimming the black root window
  // around a smaller window keeps just the window.
  const shot = await run('import', ['-window', 'root', '-trim', '+repage', output], { timeoutMs: 30000 });
  if (shot.code !== 0)
    throw new Error(`import failed: ${shot.stderr}`);
  console.log(`wrote ${output}`);
} finally {
  await app?.stop();
  await fixtures.close();
}
