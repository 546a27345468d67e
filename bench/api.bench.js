#!/usr/bin/env node
// npm run bench:api [-- --db sqlite|postgres --duration 3 --connections 10,50 --only user,links_post]
//
// Measures the API's requests per second and latency (p50, p99) against a bare express app with
// the same routes answering from memory (bench/raw-express-server.js), in the same run, on the same
// machine: autocannon runs in this process, each server is a child process. For every request
// kind and every connection count it prints both servers, the ratio, and Linkdock's RSS after the
// phase. A bare NestJS app with the same routes (bench/raw-nest-server.js) is measured the same
// way and printed first: the framework's own cost, apart from what Linkdock adds to it.
// `--cpu-prof DIR` writes Linkdock's CPU profile there. With `--before path/to/main.js`
// another build (say, of the previous commit) is measured too, and printed above this one. All
// servers run at once and each phase runs against each of them in turn, back to back, so that
// they share the same moment of a shared machine. Each row also gives the CPU a request cost each
// server (all its threads, user and system), steadier than the rates on a shared machine, where
// another tenant can take a core for seconds. Numbers only: nothing is asserted on timing.
'use strict';
const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { benchServerEnv, parseArgs, startBuiltApi, summarize } = require('./lib');

const args = parseArgs(process.argv.slice(2));
const db = args.db ?? 'sqlite';
const duration = Number(args.duration ?? 3);
const warmup = Number(args.warmup ?? 1);
const connectionCounts = String(args.connections ?? '10,50')
  .split(',')
  .map(Number);
const only = args.only ? String(args.only).split(',') : null;

/** The requests measured, in order; `auth` adds the bearer key. */
const CASES = [
  { name: 'health', label: 'GET /health', method: 'GET', path: '/health', auth: false },
  { name: 'user', label: 'GET /v1/user', method: 'GET', path: '/v1/user', auth: true },
  {
    name: 'links_list',
    label: 'GET /v1/links/ (25)',
    method: 'GET',
    path: '/v1/links/?results_per_page=25',
    auth: true,
  },
  {
    name: 'links_post',
    label: 'POST /v1/links',
    method: 'POST',
    path: '/v1/links',
    auth: true,
    status: 201,
    body: { location_url: 'https://example.com/bench/landing?ref=bench' },
  },
  {
    name: 'qr_post',
    label: 'POST /v1/qr-codes',
    method: 'POST',
    path: '/v1/qr-codes',
    auth: true,
    status: 201,
    body: { name: 'Bench', type: 'text', text: 'hello from bench:api' },
  },
].filter((c) => !only || only.includes(c.name));

function load(base, kase, key, connections, seconds) {
  const headers = {};
  if (kase.auth) headers.authorization = `Bearer ${key}`;
  if (kase.body) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${base}${kase.path}`,
        method: kase.method,
        headers,
        body: kase.body ? JSON.stringify(kase.body) : undefined,
        connections,
        duration: seconds,
        pipelining: 1,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

/**
 * The CPU time a process has used so far (all its threads, user and system), in clock ticks (100
 * a second on Linux).
 */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Starts a baseline app (bare express or bare Nest) in its own process; resolves with how to reach it. */
async function startBaseline(script, port) {
  const child = fork(join(__dirname, script), [], {
    env: { ...process.env, PORT: String(port) },
  });
  await new Promise((resolve) => child.once('message', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    key: 'ld_bench_baseline_key_000000',
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Starts a Linkdock build on a fresh database, seeds 25 links and checks every measured request. */
async function startLinkdock(main, port) {
  const { env, cleanUp } = await benchServerEnv({
    port,
    db,
    prefix: `bench_api_${port}`,
    extra: { LOG_LEVEL: args['log-level'] ?? 'info', API_RATE_LIMIT: '1000000' },
  });
  const nodeArgs = args['cpu-prof']
    ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof'] === true ? tmpdir() : args['cpu-prof']}`]
    : [];
  const api = await startBuiltApi(env, port, main, nodeArgs);
  const stop = async () => {
    await api.stop();
    await cleanUp();
  };
  try {
    const bootRss = rssMb(api.server.pid);
    for (let i = 0; i < 25; i += 1) {
      const res = await fetch(`${api.base}/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          location_url: `https://example.com/landing/${i}`,
          url: `bench-${i}`,
        }),
      });
      if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    }
    for (const kase of CASES) {
      const res = await fetch(`${api.base}${kase.path}`, {
        method: kase.method,
        headers: {
          ...(kase.auth ? { authorization: `Bearer ${api.key}` } : {}),
          ...(kase.body ? { 'content-type': 'application/json' } : {}),
        },
        body: kase.body ? JSON.stringify(kase.body) : undefined,
      });
      const text = await res.text();
      if (res.status !== (kase.status ?? 200))
        throw new Error(`${kase.label} answered ${res.status}: ${text.slice(0, 300)}`);
      if (kase.name === 'links_list' && JSON.parse(text).data.length !== 25)
        throw new Error('the list did not return 25 rows');
    }
    return { base: api.base, key: api.key, pid: api.server.pid, bootRss, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Every phase (request kind x connections) runs against each server in turn, back to back, so
 * that the baseline and each build see the same moment of a shared machine.
 */
async function runInterleaved(targets) {
  for (const target of targets) target.results = {};
  for (const kase of CASES) {
    for (const connections of connectionCounts) {
      for (const target of targets) {
        await load(target.base, kase, target.key, connections, warmup);
        const cpuBefore = cpuTicks(target.pid);
        const raw = await load(target.base, kase, target.key, connections, duration);
        const ticks = cpuTicks(target.pid) - cpuBefore;
        const result = summarize(raw, '2xx');
        // 100 ticks a second: 10,000 µs a tick.
        const cpuUs =
          raw.requests.total > 0 ? Math.round((ticks * 10_000) / raw.requests.total) : 0;
        target.results[`${kase.name}@${connections}`] = {
          ...result,
          cpuUs,
          rss: rssMb(target.pid),
        };
      }
    }
  }
}

function report(ld, bare, goals = true) {
  console.log(`\n${goals ? 'Linkdock, ' : ''}${ld.name}: RSS after boot ${ld.bootRss} MB`);
  const head =
    'request'.padEnd(22) +
    'conns'.padStart(6) +
    (goals ? '  linkdock' : '      nest') +
    ' req/s   p50   p99 ' +
    '  express req/s   p50   p99 ' +
    '  ratio  p99/base  RSS MB  non-2xx  CPU µs/req (express)  CPU ratio';
  console.log(head);
  for (const kase of CASES) {
    for (const connections of connectionCounts) {
      const key = `${kase.name}@${connections}`;
      const a = ld.results[key];
      const b = bare[key];
      console.log(
        kase.label.padEnd(22) +
          String(connections).padStart(6) +
          String(a.rps).padStart(16) +
          String(a.p50).padStart(6) +
          String(a.p99).padStart(6) +
          String(b.rps).padStart(16) +
          String(b.p50).padStart(6) +
          String(b.p99).padStart(6) +
          (a.rps / b.rps).toFixed(2).padStart(8) +
          (b.p99 > 0 ? (a.p99 / b.p99).toFixed(1) : '-').padStart(10) +
          String(a.rss).padStart(8) +
          String(a.other).padStart(9) +
          `${a.cpuUs} (${b.cpuUs})`.padStart(22) +
          (a.cpuUs > 0 ? (b.cpuUs / a.cpuUs).toFixed(2) : '-').padStart(11),
      );
    }
  }
  const ratio = (name, c, of = (r) => r.rps) =>
    ld.results[`${name}@${c}`] && bare[`${name}@${c}`]
      ? of(ld.results[`${name}@${c}`]) / of(bare[`${name}@${c}`])
      : null;
  if (!goals) return;
  // CPU per request the other way round: express's over Linkdock's, comparable with the rates'.
  const cpu = (r) => 1 / Math.max(r.cpuUs, 1);
  for (const [name, label, goal] of [
    ['user', 'GET /v1/user >= 0.5x bare express', 0.5],
    ['links_post', 'POST /v1/links >= 0.3x bare express POST', 0.3],
  ]) {
    const rate = ratio(name, connectionCounts[0]);
    if (rate === null) continue;
    const perCpu = ratio(name, connectionCounts[0], cpu);
    console.log(
      `goal ${label}: ${rate.toFixed(2)} ${rate >= goal ? 'met' : 'NOT met'}` +
        ` (by CPU per request: ${perCpu.toFixed(2)})`,
    );
  }
}

(async () => {
  console.log(
    `bench:api  ${connectionCounts.join(' and ')} connections, ${duration} s per phase (+${warmup} s warm-up), database ${db}, node ${process.version}`,
  );
  const express = await startBaseline('raw-express-server.js', 3911);
  const nest = await startBaseline('raw-nest-server.js', 3914);
  nest.bootRss = rssMb(nest.pid);
  const builds = [];
  try {
    if (args.before) {
      builds.push({ name: `before (${args.before})`, ...(await startLinkdock(args.before, 3913)) });
    }
    builds.push({ name: 'this build', ...(await startLinkdock(null, 3912)) });
    await runInterleaved([express, nest, ...builds]);
  } finally {
    for (const build of builds) await build.stop();
    await nest.stop();
    await express.stop();
  }
  report({ name: 'bare NestJS (the framework alone)', ...nest }, express.results, false);
  for (const ld of builds) report(ld, express.results);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
