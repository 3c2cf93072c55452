// SPDX-License-Identifier: GPL-3.0-or-later
//
// Prints one closing line, "tests: N passed, N failed, N skipped", from the
// JSON lines logs that `meson test` writes (one or more, added up), so a CI
// reader sees the counts.
import { readFileSync } from 'node:fs';

const counts = { passed: 0, failed: 0, skipped: 0 };
let text = '';
for (const file of process.argv.slice(2)) {
  try {
    text += readFileSync(file, 'utf8') + '\n';
  } catch (error) {
    console.error(`test-summary: cannot read ${file}: ${error.message}`);
    process.exit(1);
  }
}
for (const line of text.split('\n')) {
  if (!line.trim())
    continue;
  const { result } = JSON.parse(line);
  if (result === 'OK' || result === 'EXPECTEDFAIL')
    counts.passed++;
  else if (result === 'SKIP')
    counts.skipped++;
  else
    counts.failed++;
}
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
