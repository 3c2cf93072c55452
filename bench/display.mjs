// SPDX-License-Identifier: GPL-3.0-or-later
//
// A display for the Tabwright a benchmark starts: the one it runs under, or
// an Xvfb of its own on a free display number.

import { spawn } from 'node:child_process';

// Resolves with the environment to add for Tabwright ({} when there is a
// display already); pushes the stopping of a started Xvfb onto @cleanups.
export async function ensureDisplay(log, cleanups) {
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
    return {};
  log('no display: starting Xvfb');
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => xvfb.kill('SIGTERM'));
  const display = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 15000);
    xvfb.on('error', (error) => reject(new Error(`cannot start Xvfb: ${error.message}`)));
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
  });
  return { DISPLAY: display };
}
