// SPDX-License-Identifier: GPL-3.0-or-later
//
// A small HTTP proxy in front of Tabwright for tools that cannot send a
// bearer token, such as the MCP conformance suite: it adds
// `Authorization: Bearer <token>` and otherwise forwards requests and
// streamed replies unchanged. Host and Origin pass through as they are, so
// the app's DNS-rebinding defence sees what the client sent; the one
// exception is the proxy's own loopback address, which is translated to the
// app's so that a request the client aimed at "this local server" stays
// local with the right port.

import http from 'node:http';

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

function translateHost(value, proxyPort, appPort) {
  for (const host of LOCAL_HOSTS) {
    if (value === `${host}:${proxyPort}`)
      return `${host}:${appPort}`;
  }
  return value;
}

function translateOrigin(value, proxyPort, appPort) {
  for (const host of LOCAL_HOSTS) {
    if (value === `http://${host}:${proxyPort}`)
      return `http://${host}:${appPort}`;
  }
  return value;
}

export async function startAuthProxy(appUrl, token) {
  const target = new URL(appUrl);
  const appPort = target.port;
  let proxyPort = 0;
  const sockets = new Set();

  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host !== undefined)
      headers.host = translateHost(headers.host, proxyPort, appPort);
    if (headers.origin !== undefined)
      headers.origin = translateOrigin(headers.origin, proxyPort, appPort);

    const upstream = http.request({
      host: target.hostname,
      port: appPort,
      path: req.url,
      method: req.method,
      headers,
      setHost: false,
    }, (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode, upstreamRes.statusMessage, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent)
        res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy error: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  proxyPort = String(server.address().port);

  return {
    url: `http://127.0.0.1:${proxyPort}${target.pathname}`,
    close: () => new Promise((resolve) => {
      for (const socket of sockets)
        socket.destroy();
      server.close(() => resolve());
    }),
  };
}
