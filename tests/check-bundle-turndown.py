#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# build-aux/bundle-turndown, which the Flatpak build uses to join Turndown's
# src/ into the one ES module file that -Dturndown names, run on small
# modules in Turndown's forms (tests/bundle-turndown/src): default and named
# imports, "as" on both sides, "export default" of a function, of an
# expression and of a list, a name declared in two modules, and a require()
# in the branch of process.browser a browser never takes. Node imports the
# result and calls it. Then the sources it must refuse, each with a message
# and no file written: a cycle, a module form it does not know, an import of
# a name that is not exported, and the Node branch that reaches require().
#
#   check-bundle-turndown.py BUNDLER FIXTURES NODE

import os
import subprocess
import sys
import tempfile

from checks import check, report


def main():
    bundler, fixtures, node = sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix='tabwright-bundle-turndown-') as tmp:
        out = os.path.join(tmp, 'turndown.mjs')
        run = subprocess.run([sys.executable, bundler, os.path.join(fixtures, 'src'), out, '--entry', 'main.js'],
                             capture_output=True, text=True)
        if check(run.returncode == 0, f'the fixture bundles: {run.stderr.strip()}'):
            with open(out, encoding='utf-8') as f:
                text = f.read()
            check(text.rstrip().endswith('\nexport default TurndownService;'),
                  'the file ends in "export default TurndownService;", as data/meson.build expects')
            check('process.browser' not in text, 'process.browser is replaced')
            script = ('import("' + out + '").then(m => { const S = m.default;'
                      ' console.log(new S().describe()); console.log(S({ a: 1 }).options.a); })')
            ran = subprocess.run([node, '--input-type=module', '-e', script], capture_output=True, text=True)
            check(ran.returncode == 0, f'node imports the bundle: {ran.stderr.strip()}')
            lines = ran.stdout.split('\n')
            check(lines[0] == 'main rules-of-util a+b 42 browser 42',
                  f'the bundle computes what the modules do, not {lines[0]!r}')
            check(len(lines) > 1 and lines[1] == '1', 'the default export is callable without new')

        for case, args, words in (
            ('src', ['--node'], 'require() is reachable'),
            ('cycle', [], 'an import cycle: main.js -> other.js -> main.js'),
            ('unknown', [], "a module form this bundler does not know: export * from './other'"),
            ('missing', [], "util.js exports no 'absent'"),
        ):
            refused = os.path.join(tmp, case + '.mjs')
            run = subprocess.run([sys.executable, bundler, os.path.join(fixtures, case), refused,
                                  '--entry', 'main.js', *args], capture_output=True, text=True)
            check(run.returncode == 1, f'{case} {args} is refused, not exit {run.returncode}')
            check(words in run.stderr, f'{case} {args} says "{words}", not {run.stderr.strip()!r}')
            check(not os.path.exists(refused), f'{case} {args} writes no file')

    return report('bundle-turndown: joins the fixture modules right and refuses the four bad sources')


if __name__ == '__main__':
    sys.exit(main())
