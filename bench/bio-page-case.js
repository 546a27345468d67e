'use strict';
// The bio-page case of bench:redirect (kept in its own file): page views per second of a bio page
// (a link of type biolink with a heading, a paragraph, two link blocks, socials and an email form)
// with every view counted as a visit, next to a raw node:http server answering a fixed page of the
// same size; then the worst page the caps allow (100 appointment blocks). After SIGTERM it checks
// that every counted view became a visit row.
const { spawn, fork } = require('node:child_process');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { benchServerEnv, exitOf, serverNodeFlags, summarize, waitForUrl } = require('./lib');

const root = join(__dirname, '..');
/** The costliest appointment block a page may hold (test/bio-pages-appointments.e2e-spec.ts). */
const WORST_APPOINTMENTS = {
  type: 'appointment_calendar',
  timezone: 'Europe/Paris',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_time: '00:00',
  end_time: '23:59',
  duration_value: 1,
  duration_type: 'minutes',
  max_days_ahead: 90,
  min_notice_minutes: 0,
  description: 'x'.repeat(1000),
};
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function load(url, seconds, connections, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function rawPage(bytes, duration, connections) {
  const port = 3911;
  const child = fork(join(__dirname, 'raw-page-server.js'), [], {
    env: { ...process.env, PORT: String(port), PAGE_BYTES: String(bytes) },
  });
  await new Promise((resolve) => child.once('message', resolve));
  await load(`http://127.0.0.1:${port}/`, 2, connections);
  const result = summarize(await load(`http://127.0.0.1:${port}/`, duration, connections), '2xx');
  child.kill('SIGTERM');
  await exitOf(child);
  return result;
}

async function api(base, key, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${await res.text()}`);
  return (await res.json()).data.id;
}

async function bioPage(db, duration, connections) {
  const port = 3912;
  const { env, dataDir, cleanUp } = await benchServerEnv({ port, db, prefix: 'benchbio' });
  const server = spawn(
    process.execPath,
    [...serverNodeFlags(), join(root, 'dist/apps/api/src/main.js')],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  await waitForUrl(`${base}/health`);
  while (!/ld_[A-Za-z0-9_-]{20,}/.test(output)) await new Promise((r) => setTimeout(r, 100));
  const key = /ld_[A-Za-z0-9_-]{20,}/.exec(output)[0];
  const linkId = await api(base, key, '/v1/links', {
    type: 'biolink',
    url: 'bench-bio',
    title: 'Ada Lovelace',
    description: 'Engineer & writer',
  });
  const block = (fields) => api(base, key, '/v1/biolink-blocks', { link_id: linkId, ...fields });
  await block({ type: 'heading', text: 'My links' });
  await block({ type: 'paragraph', text: 'Notes on the analytical engine, and what came after.' });
  await block({ type: 'link', name: 'Shop', location_url: 'https://shop.example.com/' });
  await block({ type: 'link', name: 'Blog', location_url: 'https://blog.example.com/' });
  await block({ type: 'socials', github: 'octocat', instagram: 'ada' });
  await block({ type: 'email_collector', title: 'Newsletter', name: 'Subscribe' });
  const bytes = Buffer.byteLength(await (await fetch(`${base}/bench-bio`)).text());

  const headers = { 'user-agent': BROWSER_UA, 'accept-language': 'en-US,en;q=0.9' };
  const warm = summarize(await load(`${base}/bench-bio`, 2, connections, headers), '2xx');
  const result = summarize(await load(`${base}/bench-bio`, duration, connections, headers), '2xx');

  // The worst page the caps allow (docs/bio-pages.md): 100 appointment blocks of 1-minute slots all
  // day, every day, 90 days ahead, each with a 1,000-character description.
  const worstId = await api(base, key, '/v1/links', { type: 'biolink', url: 'bench-bio-worst' });
  for (let i = 0; i < 100; i += 1) {
    await api(base, key, '/v1/biolink-blocks', { link_id: worstId, ...WORST_APPOINTMENTS });
  }
  const worstBytes = Buffer.byteLength(await (await fetch(`${base}/bench-bio-worst`)).text());
  const worstWarm = summarize(
    await load(`${base}/bench-bio-worst`, 2, connections, headers),
    '2xx',
  );
  const worst = summarize(
    await load(`${base}/bench-bio-worst`, duration, connections, headers),
    '2xx',
  );
  server.kill('SIGTERM');
  const exit = await exitOf(server);
  const shutdown = /Visits: (\d+) counted, (\d+) written, (\d+) not written/.exec(output);
  const counted = shutdown ? Number(shutdown[1]) : null;
  const stored =
    (await countVisits(db, dataDir, env.DATABASE_URL, linkId)) +
    (await countVisits(db, dataDir, env.DATABASE_URL, worstId));
  await cleanUp();
  // The fetches that measured the pages' sizes were views too.
  const clientSaw = warm.ok + result.ok + 1 + worstWarm.ok + worst.ok + 1;
  return { result, bytes, worst, worstBytes, counted, clientSaw, stored, exit };
}

async function countVisits(kind, dataDir, url, linkId) {
  if (kind === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    const visits = await client.query('SELECT COUNT(*)::int AS n FROM visits WHERE link_id = $1', [
      linkId,
    ]);
    await client.end();
    return visits.rows[0].n;
  }
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(dataDir, 'linkdock.sqlite'), { readonly: true });
  const visits = sqlite.prepare('SELECT COUNT(*) AS n FROM visits WHERE link_id = ?').get(linkId).n;
  sqlite.close();
  return visits;
}

/** Runs the case and prints its lines; called by redirect.bench.js after its own case. */
async function runBioPageCase({ db, duration, connections }) {
  const bio = await bioPage(db, duration, connections);
  const raw = await rawPage(bio.bytes, duration, connections);
  const row = (name, r) =>
    `${name.padEnd(26)} ${String(r.rps).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   non-200 ${r.other}`;
  console.log(`\nbio page (${bio.bytes} bytes of HTML, every view counted as a visit)`);
  console.log(row('raw node:http page', raw));
  console.log(row('linkdock bio page', bio.result));
  console.log(`bio page / raw page: ${((bio.result.rps / raw.rps) * 100).toFixed(1)} %`);
  console.log(
    `${row('worst page the caps allow', bio.worst)}   (${bio.worstBytes} bytes: 100 appointment blocks, 1-minute slots, 90 days)`,
  );
  console.log(`worst page / bio page: ${((bio.worst.rps / bio.result.rps) * 100).toFixed(1)} %`);
  console.log(
    `page views seen by the client ${bio.clientSaw}   counted ${bio.counted}   recorded visits ${bio.stored}   ` +
      `${bio.counted === bio.stored ? 'MATCH' : 'MISMATCH'}   (server exit ${bio.exit})`,
  );
  console.log(`goal (>= 15000 page views/s): ${bio.result.rps >= 15_000 ? 'met' : 'NOT met'}`);
}

module.exports = { runBioPageCase };
