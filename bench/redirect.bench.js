#!/usr/bin/env node
// npm run bench:redirect [-- --duration 10 --connections 50 --db sqlite|postgres] [--kill]
//
// Measures redirects per second and p99 latency of the visitor edge against a raw node:http
// server that does nothing but answer 302, in the same run, on the same machine (autocannon runs
// in this process; each server is a child process). Then stops Linkdock with SIGTERM and checks
// that every counted redirect became a visit row. With --kill it stops Linkdock with SIGKILL the
// moment the load ends instead, and prints how many redirects the client saw that left no visit:
// the buffered visits of at most one flush window.
'use strict';
const { spawn, fork } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { createPostgresSchema, parseArgs, waitForUrl } = require('./lib');

const root = join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 50);
const db = args.db ?? 'sqlite';
const kill = args.kill !== undefined;
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function load(url, seconds, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

function summary(result) {
  const redirects = result['3xx'] ?? 0;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    redirects,
    other:
      result['1xx'] +
      result['2xx'] +
      result['4xx'] +
      result['5xx'] +
      result.errors +
      result.timeouts,
  };
}

function exitOf(child) {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
}

async function rawBaseline() {
  const port = 3901;
  const child = fork(join(__dirname, 'raw-http-server.js'), [], {
    env: { ...process.env, PORT: String(port) },
  });
  await new Promise((resolve) => child.once('message', resolve));
  await load(`http://127.0.0.1:${port}/`, 2);
  const result = summary(await load(`http://127.0.0.1:${port}/`, duration));
  child.kill('SIGTERM');
  await exitOf(child);
  return result;
}

async function linkdock() {
  const port = 3902;
  const dataDir = mkdtempSync(join(tmpdir(), 'linkdock-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: 'bench@example.com',
  };
  let schema = null;
  if (db === 'postgres') {
    schema = await createPostgresSchema('bench');
    env.DATABASE_URL = schema.url;
    env.REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    env.SECRETS_KEY = require('node:crypto').randomBytes(32).toString('base64');
  }
  const server = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  await waitForUrl(`${base}/health`);
  while (!/ld_[A-Za-z0-9_-]{20,}/.test(output)) await new Promise((r) => setTimeout(r, 100));
  const key = /ld_[A-Za-z0-9_-]{20,}/.exec(output)[0];
  const created = await fetch(`${base}/v1/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ location_url: 'https://example.com/landing', url: 'bench-link' }),
  });
  if (created.status !== 201)
    throw new Error(`creating the link failed: ${created.status} ${await created.text()}`);
  const linkId = (await created.json()).data.id;

  const headers = { 'user-agent': BROWSER_UA, 'accept-language': 'en-US,en;q=0.9' };
  const warm = summary(await load(`${base}/bench-link`, 2, headers));
  const result = summary(await load(`${base}/bench-link`, duration, headers));

  server.kill(kill ? 'SIGKILL' : 'SIGTERM');
  const exit = await exitOf(server);
  const shutdown = /Visits: (\d+) counted, (\d+) written, (\d+) not written/.exec(output);
  if (!shutdown && !kill) throw new Error('the server did not report its visit counts on shutdown');
  const counted = shutdown ? Number(shutdown[1]) : null;
  const clientSaw = warm.redirects + result.redirects;
  const stored = await countVisits(db, dataDir, env.DATABASE_URL, linkId);
  if (schema) await schema.drop();
  rmSync(dataDir, { recursive: true, force: true });
  return { result, counted, clientSaw, stored, exit };
}

async function countVisits(kind, dataDir, url, linkId) {
  if (kind === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    const visits = await client.query('SELECT COUNT(*)::int AS n FROM visits WHERE link_id = $1', [
      linkId,
    ]);
    const clicks = await client.query('SELECT clicks FROM links WHERE id = $1', [linkId]);
    await client.end();
    return { visits: visits.rows[0].n, clicks: clicks.rows[0].clicks };
  }
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(dataDir, 'linkdock.sqlite'), { readonly: true });
  const visits = sqlite.prepare('SELECT COUNT(*) AS n FROM visits WHERE link_id = ?').get(linkId).n;
  const clicks = sqlite.prepare('SELECT clicks FROM links WHERE id = ?').get(linkId).clicks;
  sqlite.close();
  return { visits, clicks };
}

(async () => {
  console.log(
    `bench:redirect  ${connections} connections, ${duration} s per run, database ${db}, node ${process.version}`,
  );
  const raw = await rawBaseline();
  const edge = await linkdock();
  const row = (name, r) =>
    `${name.padEnd(26)} ${String(r.rps).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   non-redirects ${r.other}`;
  console.log(row('raw node:http (baseline)', raw));
  console.log(row('linkdock edge', edge.result));
  console.log(`edge / baseline: ${((edge.result.rps / raw.rps) * 100).toFixed(1)} %`);
  if (kill) {
    const lost = edge.clientSaw - edge.stored.visits;
    console.log(
      `SIGKILL at the end of the load: redirects seen by the client ${edge.clientSaw}   recorded visits ${edge.stored.visits}   ` +
        `links.clicks ${edge.stored.clicks}   lost ${lost} (${((lost / edge.clientSaw) * 100).toFixed(2)} %)`,
    );
    return;
  }
  console.log(
    `redirects seen by the client ${edge.clientSaw} (requests still in flight when a run ends are not seen)\n` +
      `counted redirects ${edge.counted}   recorded visits ${edge.stored.visits}   links.clicks ${edge.stored.clicks}   ` +
      `${edge.counted === edge.stored.visits && edge.stored.visits === edge.stored.clicks ? 'MATCH' : 'MISMATCH'}   (server exit ${edge.exit})`,
  );
  const goal = edge.result.rps >= 30_000 && edge.result.p99 <= 5;
  console.log(`goal (>= 30000 req/s and p99 <= 5 ms): ${goal ? 'met' : 'NOT met'}`);
  await require('./bio-page-case').runBioPageCase({ db, duration, connections });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
