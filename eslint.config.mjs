// SPDX-License-Identifier: GPL-3.0-or-later
//
// ESLint for Tabwright's JavaScript: the in-page runtime, the end-to-end
// tests and the benchmarks. The rules find bugs, not style: the C tree's
// formatter does not reach here and no JavaScript style is imposed.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import js from '@eslint/js';
import globals from 'globals';

const runtimeDir = 'webview/runtime';

// The runtime modules are concatenated into one function body
// (tw_page_runtime_get_source in webview/tw-page-runtime.c), so each one's
// top-level const is in scope in all the others. Each file is linted with
// the other modules' names as read-only globals, read from the files
// themselves so a new module needs no entry here.
const runtimeFiles = readdirSync(runtimeDir).filter((name) => name.endsWith('.js')).sort();
const runtimeNames = new Map(runtimeFiles.map((name) => {
  const source = readFileSync(join(runtimeDir, name), 'utf8');
  return [name, [...source.matchAll(/^(?:const|let|function)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1])];
}));

// read-turndown.js joins the runtime too, generated at build time from
// Debian's node-turndown (data/meson.build): it declares Turndown.
function sharedGlobals (exceptFile) {
  const shared = { Turndown: 'readonly' };
  for (const [name, declared] of runtimeNames) {
    if (name === exceptFile)
      continue;
    for (const id of declared)
      shared[id] = 'readonly';
  }
  return shared;
}

// A module may take a name the browser also has (Keyboard): its own const
// shadows the browser's inside the runtime's function, so it is no global.
function browserExcept (names) {
  const result = { ...globals.browser };
  for (const id of names)
    delete result[id];
  return result;
}

const bugRules = {
  ...js.configs.recommended.rules,
  // Parameters stay named even when unused: the runtime's entry points are a
  // table of methods called as (ctx, args), callbacks keep their signature.
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'no-redeclare': 'error',
  'no-shadow-restricted-names': 'error',
  // Only uses that run before the definition: a closure that runs later
  // may name what follows it.
  'no-use-before-define': ['error', { functions: false, classes: true, variables: false }],
  // Page scripts ignore what a hostile page makes a getter throw.
  'no-empty': ['error', { allowEmptyCatch: true }],
  // A variable given its fallback before a try that may replace it is
  // clearer than one assigned in both branches.
  'no-useless-assignment': 'off',
  'no-unmodified-loop-condition': 'error',
  'no-unreachable-loop': 'error',
  'no-constructor-return': 'error',
  'array-callback-return': 'error',
  'no-implicit-globals': 'off',
};

export default [
  {
    ignores: ['node_modules/**', 'build/**', 'build-*/**', 'tests/e2e/fixtures/**',
      // Modules in Turndown's own forms, for build-aux/bundle-turndown's test.
      'tests/bundle-turndown/**'],
  },
  // The runtime: scripts in the isolated world of a page, one shared scope.
  ...runtimeFiles.map((name) => ({
    files: [`${runtimeDir}/${name}`],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...browserExcept(runtimeNames.get(name)), ...sharedGlobals(name) },
    },
    rules: {
      ...bugRules,
      // A module's const is used by the others, not by itself.
      'no-unused-vars': ['error', { vars: 'local', args: 'none', caughtErrors: 'none' }],
      // Uses before definition are calls at run time, after every module
      // has loaded.
      'no-use-before-define': 'off',
    },
  })),
  // hover.js marks the placeholders of its style templates with U+0001 and
  // U+0002, characters no style sheet holds: a control character in its
  // patterns is meant.
  {
    files: [`${runtimeDir}/hover.js`],
    rules: { 'no-control-regex': 'off' },
  },
  // Scripts in a page's own world: page-world helpers, the web extension's
  // console hook, the test fixtures' page scripts.
  {
    files: ['webview/page-world/*.js', 'webview/extension/*.js',
            'tests/fixtures/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.browser },
    },
    rules: bugRules,
  },
  // What the C side wraps around the runtime and the agent's function
  // (webview/tw-script.c expands the tabwright* names), and the body of
  // every call into the runtime: function bodies, run with their arguments
  // (fn, args, nextRef, held; nonce, maxBytes).
  {
    files: [`${runtimeDir}/call/*.js`, 'webview/page-world/evaluate-*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      parserOptions: { ecmaFeatures: { globalReturn: true } },
      globals: {
        ...globals.browser, __tabwright: 'readonly', fn: 'readonly', args: 'readonly',
        nextRef: 'readonly', held: 'readonly', nonce: 'readonly', maxBytes: 'readonly',
        tabwrightModules: 'readonly', tabwrightAgentFunction: 'readonly',
        tabwrightHelperName: 'readonly', tabwrightHelperSource: 'readonly',
      },
    },
    // evaluate-install.js declares the helper for the page's later calls.
    rules: { ...bugRules, 'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none',
                                                         varsIgnorePattern: '^tabwright' }] },
  },
  // Node: the end-to-end tests, their library and the benchmarks.
  {
    files: ['tests/e2e/**/*.mjs', 'bench/*.mjs', 'build-aux/*.mjs', 'eslint.config.mjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: bugRules,
  },
];
