// SPDX-License-Identifier: GPL-3.0-or-later
//
// What a browser costs, read from outside through /proc: a process and
// every process below it, each one's proportional set size (PSS, so pages
// shared between processes are counted once in a sum), its CPU time and its
// open file descriptors, grouped by what the process is.

import fs from 'node:fs';

export const TICKS = 100; // USER_HZ on Linux

// { ppid, cpu (ticks), comm } of @pid, or null once it is gone.
export function readStat(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), cpu: Number(rest[11]) + Number(rest[12]), comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')) };
  } catch {
    return null;
  }
}

// Chromium's children rewrite their command line as one string with
// spaces, so both forms are split.
function cmdline(pid) {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return args.length === 1 ? args[0].split(' ') : args;
  } catch {
    return [];
  }
}

// @root and every process below it.
export function family(root) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name))
      continue;
    const s = readStat(name);
    if (!s)
      continue;
    if (!children.has(s.ppid))
      children.set(s.ppid, []);
    children.get(s.ppid).push(Number(name));
  }
  const out = [];
  const walk = (pid) => {
    out.push(pid);
    for (const c of children.get(pid) ?? [])
      walk(c);
  };
  walk(root);
  return out;
}

// PSS of @pid in KiB; with @field, one line of smaps_rollup instead
// ("Pss_Anon": its own heap and anonymous maps, without the shares of
// libraries and buffers that move with the other processes' lifetimes).
export function pss(pid, field = 'Pss') {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

// The open file descriptors of @pid, by what they point at: "socket",
// "pipe", "anon_inode:[eventfd]", "/memfd:…", or "file" for the rest.
export function fds(pid) {
  const byKind = {};
  let total = 0;
  let names;
  try {
    names = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return { total: 0, byKind };
  }
  for (const name of names) {
    let target;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${name}`);
    } catch {
      continue; // Closed while being read.
    }
    let k = 'file';
    if (target.startsWith('socket:'))
      k = 'socket';
    else if (target.startsWith('pipe:'))
      k = 'pipe';
    else if (target.startsWith('anon_inode:'))
      k = target;
    else if (target.startsWith('/memfd:'))
      k = `memfd:${target.slice(7).replace(/ \(deleted\)$/, '')}`;
    else if (target.startsWith('/dev/'))
      k = target;
    byKind[k] = (byKind[k] ?? 0) + 1;
    total++;
  }
  return { total, byKind };
}

// What a process of Tabwright's family is: the app itself, a WebKit web or
// network process, or something else (sandbox launchers, D-Bus proxies).
export function tabwrightKind(pid, rootPid, comm) {
  if (pid === rootPid)
    return 'app';
  if (comm.startsWith('WebKitWebProces'))
    return 'web';
  if (comm.startsWith('WebKitNetworkPr'))
    return 'network';
  return 'other';
}

// The same for Playwright MCP: its Node server, Chromium's browser process
// (the counterpart of Tabwright's app), renderers, the network service, and
// the rest (GPU, zygotes, other utilities).
export function chromiumKind(pid, rootPid) {
  if (pid === rootPid)
    return 'server';
  const args = cmdline(pid);
  const type = args.find((a) => a.startsWith('--type='))?.slice(7);
  if (type === undefined)
    return /chrom/.test(args[0] ?? '') ? 'app' : 'other';
  if (type === 'renderer')
    return 'web';
  if (type === 'utility' && args.some((a) => a.includes('NetworkService')))
    return 'network';
  return 'other';
}

// PSS (MiB), process count and the names of each kind of process of @root's
// family; with @fdsOf, the open descriptors of the process of that kind.
export function measureFamily(root, kindOf, { fdsOf = 'app' } = {}) {
  const out = { total: { pss: 0, processes: 0 } };
  for (const pid of family(root)) {
    const s = readStat(pid);
    if (!s)
      continue;
    const k = kindOf(pid, root, s.comm);
    const p = pss(pid) / 1024;
    out[k] ??= { pss: 0, processes: 0, pids: [] };
    out[k].pss += p;
    out[k].processes++;
    out[k].pids.push(pid);
    out.total.pss += p;
    out.total.processes++;
    if (k === fdsOf && out.fds === undefined)
      out.fds = fds(pid);
  }
  return out;
}

// The load average of the last minute, the figures' context.
export function loadAverage() {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
}

function fdTargets(pid) {
  const out = new Map();
  let names;
  try {
    names = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      out.set(name, fs.readlinkSync(`/proc/${pid}/fd/${name}`));
    } catch {
      // Closed while being read.
    }
  }
  return out;
}

// The open descriptors of the app at @root, without those it holds for
// WebKit's sandbox D-Bus proxies (a bwrap running xdg-dbus-proxy, started
// beside each web process): the pipe whose closing tells a proxy to quit
// and the pidfd that watches its bwrap. WebKitGTK 2.50 keeps each proxy
// after its web process is gone; they are counted apart, in @proxies.
export function appFds(root) {
  const proxies = new Set();
  const proxyPipes = new Set();
  for (const pid of family(root)) {
    if (pid === root)
      continue;
    const args = cmdline(pid);
    if (!args.some((a) => a.endsWith('/xdg-dbus-proxy')))
      continue;
    proxies.add(pid);
    for (const target of fdTargets(pid).values()) {
      if (target.startsWith('pipe:'))
        proxyPipes.add(target);
    }
  }
  let total = 0;
  let forProxies = 0;
  for (const [name, target] of fdTargets(root)) {
    total++;
    if (target.startsWith('pipe:') && proxyPipes.has(target)) {
      forProxies++;
    } else if (target === 'anon_inode:[pidfd]') {
      let info = '';
      try {
        info = fs.readFileSync(`/proc/${root}/fdinfo/${name}`, 'utf8');
      } catch {
        // Closed while being read.
      }
      const pid = Number(/^Pid:\s+(\d+)/m.exec(info)?.[1]);
      if (proxies.has(pid))
        forProxies++;
    }
  }
  return { total, forProxies, own: total - forProxies, proxies: proxies.size };
}
