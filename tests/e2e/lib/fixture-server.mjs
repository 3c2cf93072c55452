// SPDX-License-Identifier: GPL-3.0-or-later
//
// A static fixture web server on 127.0.0.1 for the end-to-end tests and the
// benchmark. It serves tests/e2e/fixtures/, React's UMD builds under
// /vendor/, and generated pages:
//   /page?title=T        a page titled T
//   /status/<code>       a page answered with that HTTP status
//   /table?rows=N        an app-like table of N rows (see pages.mjs)
//   /huge?elements=N     a page of about N elements (see pages.mjs)
//   /slow?ms=N           a page that takes N ms to answer
//   /negotiate           Markdown for Accept: text/markdown, else HTML
//   /whoami              a page that shows the Cookie header it got
// It keeps the path of every request it got, in order (requested()).

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { srcdir } from './tabwright.mjs';
import { hugePage, simplePage, tablePage } from './pages.mjs';

const FIXTURES = path.join(srcdir, 'tests', 'e2e', 'fixtures');
const VENDOR = {
  'react.js': path.join(srcdir, 'node_modules', 'react', 'umd', 'react.production.min.js'),
  'react-dom.js': path.join(srcdir, 'node_modules', 'react-dom', 'umd', 'react-dom.production.min.js'),
};
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

function send(res, status, body, type = 'text/html; charset=utf-8') {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

function sendFile(res, file) {
  fs.readFile(file, (error, data) => {
    if (error)
      send(res, 404, simplePage('Not Found'));
    else
      send(res, 200, data, TYPES[path.extname(file)] ?? 'application/octet-stream');
  });
}

function handle(req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  const p = url.pathname;

  if (p === '/page')
    return send(res, 200, simplePage(url.searchParams.get('title') ?? 'Page'));

  const status = /^\/status\/(\d{3})$/.exec(p);
  if (status)
    return send(res, Number(status[1]), simplePage(`Status ${status[1]}`));

  if (p === '/table') {
    const rows = Math.min(Math.max(Number(url.searchParams.get('rows') ?? 20) | 0, 0), 20000);
    return send(res, 200, tablePage(rows));
  }

  if (p === '/huge') {
    const elements = Math.min(Math.max(Number(url.searchParams.get('elements') ?? 200000) | 0, 0), 1000000);
    return send(res, 200, hugePage(elements));
  }

  if (p === '/slow') {
    const ms = Math.min(Math.max(Number(url.searchParams.get('ms') ?? 500) | 0, 0), 30000);
    const timer = setTimeout(() => send(res, 200, simplePage(`Slow ${ms}`)), ms);
    res.on('close', () => clearTimeout(timer));
    return undefined;
  }

  // Reading tools (issue 17): Markdown when asked for, and the cookies a
  // request carried.
  if (p === '/negotiate') {
    if ((req.headers.accept ?? '').includes('text/markdown'))
      return send(res, 200, '# Negotiated\n\nMarkdown because it was asked for.\n', 'text/markdown; charset=utf-8');
    return send(res, 200, simplePage('Negotiated HTML'));
  }
  if (p === '/whoami')
    return send(res, 200, `<title>Who am I</title><main><p>Cookie header: ${(req.headers.cookie ?? 'none').replace(/</g, '&lt;')}</p></main>`);

  if (p.startsWith('/vendor/')) {
    const file = VENDOR[p.slice('/vendor/'.length)];
    return file ? sendFile(res, file) : send(res, 404, simplePage('Not Found'));
  }

  // Static files; the resolved path must stay inside the fixtures folder.
  const relative = p === '/' ? 'index.html' : decodeURIComponent(p).replace(/^\/+/, '');
  const file = path.resolve(FIXTURES, relative);
  if (!file.startsWith(FIXTURES + path.sep))
    return send(res, 404, simplePage('Not Found'));
  return sendFile(res, file);
}

// Starts @server listening on a free loopback port; resolves with its
// origin, e.g. http://127.0.0.1:40123.
export function listenOnLoopback(server) {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

// Starts each of @servers (http.Server) on a free loopback port; resolves
// with { origins, close() }: their origins, in order, and what closes them
// all, as a session's fixtures (session.mjs).
export async function listenAll(...servers) {
  const origins = await Promise.all(servers.map(listenOnLoopback));
  const close = () => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return { origins, close };
}

// Starts the server on a free loopback port; resolves with
// { origin, url(path), requested(), close() }: requested() gives the paths
// of the requests it got so far, in order.
export async function startFixtureServer() {
  return serve(handle);
}

// A server of the files in @folder (a folder of the C tests' fixtures, say),
// each typed by its extension. @route(pathname, res) may answer a request
// itself (and return true), or return the path of the file to send instead;
// otherwise the file is the one at that path in @folder, never outside it.
// Resolves like startFixtureServer().
export async function startFolderServer(folder, route = () => undefined) {
  return serve((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    const routed = route(p, res);
    if (routed === true)
      return;
    const file = routed ?? path.resolve(folder, p.replace(/^\/+/, ''));
    if (!routed && !file.startsWith(folder + path.sep)) {
      send(res, 404, simplePage('Not Found'));
      return;
    }
    sendFile(res, file);
  });
}

// A server on a free loopback port that hands every request to
// @handler(req, res); resolves like startFixtureServer(). Every server keeps
// the path of each request it got, in order.
export async function serve(handler) {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(new URL(req.url, 'http://127.0.0.1').pathname);
    handler(req, res);
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: (p) => new URL(p, origin).href,
    requested: () => [...seen],
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
