#!/usr/bin/env node
// npm run bench:cluster [-- --duration 10 --connections 50]
//
// Redirects per second of one Linkdock instance against two behind a round-robin TCP proxy, on
// PostgreSQL and Redis, with the raw node:http baseline measured in the same run. One instance
// also goes through the proxy, so the proxy's cost is in both numbers. Then SIGTERM to every
// instance and a check that recorded visits = counted redirects. On a 2-core machine two
// instances may well not beat one: the point is that nothing breaks and the counts stay exact.
'use strict';
const { spawn, fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { createPostgresSchema, parseArgs, serverNodeFlags, waitForUrl } = require('./lib');

const root = join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 50);
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function load(url, seconds, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const exitOf = (child) =>
  new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

async function rawBaseline() {
  const child = fork(join(__dirname, 'raw-http-server.js'), [], {
    env: { ...process.env, PORT: '3911' },
  });
  await new Promise((resolve) => child.once('message', resolve));
  await load('http://127.0.0.1:3911/', 2);
  const result = await load('http://127.0.0.1:3911/', duration);
  child.kill('SIGTERM');
  await exitOf(child);
  return Math.round(result.requests.average);
}

function startInstance(port, env) {
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(), join(root, 'dist/apps/api/src/main.js')],
    {
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return { child, port, output: () => output };
}

async function proxy(port, backends) {
  const child = fork(join(__dirname, 'tcp-proxy.js'), [], {
    env: { ...process.env, PORT: String(port), BACKENDS: backends.join(',') },
  });
  await new Promise((resolve) => child.once('message', resolve));
  return child;
}

async function cluster(count) {
  const schema = await createPostgresSchema(`bench_cluster${count}`);
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    APP_URL: 'http://127.0.0.1:3920',
    DATABASE_URL: schema.url,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
    WORKER: 'external',
    ADMIN_EMAIL: 'bench@example.com',
  };
  const first = startInstance(3921, env);
  await waitForUrl('http://127.0.0.1:3921/health');
  while (!/ld_[A-Za-z0-9_-]{20,}/.test(first.output()))
    await new Promise((r) => setTimeout(r, 100));
  const key = /ld_[A-Za-z0-9_-]{20,}/.exec(first.output())[0];
  const instances = [first];
  for (let i = 1; i < count; i += 1) {
    const next = startInstance(3921 + i, env);
    await waitForUrl(`http://127.0.0.1:${3921 + i}/health`);
    instances.push(next);
  }
  const created = await fetch('http://127.0.0.1:3921/v1/links', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ location_url: 'https://example.com/landing', url: 'bench-link' }),
  });
  if (created.status !== 201) throw new Error(`creating the link failed: ${created.status}`);
  const linkId = (await created.json()).data.id;
  const balancer = await proxy(
    3920,
    instances.map((i) => i.port),
  );
  const headers = { 'user-agent': BROWSER_UA, 'accept-language': 'en-US,en;q=0.9' };
  await load('http://127.0.0.1:3920/bench-link', 2, headers);
  const result = await load('http://127.0.0.1:3920/bench-link', duration, headers);
  balancer.kill('SIGTERM');
  await exitOf(balancer);
  instances.forEach((i) => i.child.kill('SIGTERM'));
  const exits = await Promise.all(instances.map((i) => exitOf(i.child)));
  let counted = 0;
  for (const instance of instances) {
    const line = /Visits: (\d+) counted, (\d+) written, (\d+) not written/.exec(instance.output());
    if (!line) throw new Error('an instance did not report its visit counts on shutdown');
    counted += Number(line[1]);
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: schema.url });
  await client.connect();
  const visits = (
    await client.query('SELECT COUNT(*)::int AS n FROM visits WHERE link_id = $1', [linkId])
  ).rows[0].n;
  await client.end();
  await schema.drop();
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    non3xx: result.requests.total - (result['3xx'] ?? 0),
    counted,
    visits,
    exits,
  };
}

async function main() {
  console.log(
    `bench:cluster  ${connections} connections, ${duration} s per run, PostgreSQL + Redis`,
  );
  const raw = await rawBaseline();
  console.log(`raw node:http (baseline)        ${raw} req/s`);
  let ok = true;
  for (const count of [1, 2]) {
    const r = await cluster(count);
    const match = r.counted === r.visits && r.exits.every((e) => e === 0);
    ok &&= match && r.non3xx === 0;
    console.log(
      `${count} instance${count > 1 ? 's' : ' '} behind the proxy     ${r.rps} req/s  p99 ${r.p99} ms  ` +
        `(${((100 * r.rps) / raw).toFixed(1)} % of raw)  non-redirects ${r.non3xx}  ` +
        `counted ${r.counted} recorded ${r.visits} ${match ? 'MATCH' : 'MISMATCH'}`,
    );
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
