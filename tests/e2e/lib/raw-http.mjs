// SPDX-License-Identifier: GPL-3.0-or-later
//
// Raw HTTP requests to the MCP endpoint, with full control over every header
// (Host and Origin included, which fetch() does not allow) and the body.

import http from 'node:http';

export const ACCEPT = 'application/json, text/event-stream';
export const PROTOCOL_VERSION = '2025-11-25';

// Sends one request; resolves with { status, headers, text, json }. The JSON
// of an SSE reply is taken from its first `data:` event. @agent is the
// http.Agent to send it through (Node's global one by default).
export function request(url, { method = 'POST', headers = {}, body, timeoutMs = 30000, agent } = {}) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method,
      headers,
      ...(agent ? { agent } : {}),
      setHost: !Object.keys(headers).some((h) => h.toLowerCase() === 'host'),
    }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, headers: res.headers, text, json: parseBody(res.headers, text) });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (error) => {
      // A server may answer an oversized body early and close the
      // connection while we are still writing: that answer is what counts.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET')
        error.message += ' (the server closed the connection while the request was being sent)';
      reject(error);
    });
    if (body !== undefined)
      req.end(body);
    else
      req.end();
  });
}

function parseBody(headers, text) {
  const type = headers['content-type'] ?? '';
  try {
    if (type.includes('text/event-stream')) {
      for (const line of text.split('\n')) {
        if (line.startsWith('data:'))
          return JSON.parse(line.slice(5).trim());
      }
      return null;
    }
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

// A session on the endpoint, initialized the way an MCP client does it;
// through @agent when given.
export class RawSession {
  constructor(url, token, agent = undefined) {
    this.url = url;
    this.token = token;
    this.agent = agent;
    this.sessionId = null;
    this.nextId = 1;
  }

  headers(extra = {}) {
    const headers = {
      'Content-Type': 'application/json',
      Accept: ACCEPT,
      Authorization: `Bearer ${this.token}`,
      'MCP-Protocol-Version': PROTOCOL_VERSION,
    };
    if (this.sessionId)
      headers['Mcp-Session-Id'] = this.sessionId;
    return { ...headers, ...extra };
  }

  async initialize() {
    const response = await request(this.url, {
      agent: this.agent,
      headers: this.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'initialize',
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'tabwright-e2e-raw', version: '1.0.0' },
        },
      }),
    });
    if (response.status !== 200 || !response.json?.result)
      throw new Error(`initialize failed: ${response.status} ${response.text}`);
    this.sessionId = response.headers['mcp-session-id'] ?? null;
    const initialized = await request(this.url, {
      agent: this.agent,
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized answered ${initialized.status}: ${initialized.text}`);
    return response.json.result;
  }

  // Sends a JSON-RPC request (or any body when @raw is given).
  send(method, params, { headers = {}, raw } = {}) {
    const body = raw ?? JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, ...(params ? { params } : {}) });
    return request(this.url, { agent: this.agent, headers: this.headers(headers), body });
  }
}
