#!/usr/bin/env node
// npm run bench:redirect [-- --duration 10 --connections 50 --db sqlite|postgres] [--kill]
//                         [--only single|mix|writes] [--before path/to/main.js] [--cpu-prof DIR]
//                         [--heap] [--node-options='--max-semi-space-size=16'] [--rounds N]
//
// Measures redirects per second and p99 latency of the visitor edge against a raw node:http
// server that does nothing but answer 302, in the same run, on the same machine (autocannon runs
// in this process; each server is a child process), in two cases: one link hit by one browser,
// and the realistic mix (bench/realistic-mix.js: 1,000 links, a few dozen real user agents,
// languages, referrers, UTM values, client addresses of many countries through a trusted proxy),
// which drives the raw server with exactly the same requests. Then stops Linkdock with SIGTERM and
// checks that every counted redirect became a visit row, and prints Linkdock's RSS after boot,
// once the geo database is loaded, and at the end of the load. With --kill it stops Linkdock with SIGKILL the
// moment the load ends instead, and prints how many redirects the client saw that left no visit:
// the buffered visits of at most one flush window. On Linux it also prints where the CPU went
// during the load: each server's main thread, Linkdock's visit writer thread, and the load
// generator, which shares the machine. Last, unless --only picks another case, redirects of one
// link alone and then while POST /v1/links runs beside them (bench/writes-beside-case.js).
// --heap loads bench/heap-probe.js into Linkdock and prints the peak heap of its main isolate and
// of each worker thread, after boot and under the load; --node-options adds to Linkdock's
// NODE_OPTIONS (only the Linkdock server's, not the raw server's or the load generator's).
// With --before, the build measured second in a round comes out lower on this machine even when
// both are the same build (about 10 points of the baseline, measured): --rounds N measures each
// case N times, each round with a baseline of its own and the two builds in the other order than
// the round before, and prints every round and each build's mean.
'use strict';
const { spawn, fork } = require('node:child_process');
const { readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const {
  benchServerEnv,
  exitOf,
  parseArgs,
  serverNodeFlags,
  summarize,
  threadCpu,
  threadTicks,
  waitForUrl,
} = require('./lib');
const { buildVariants, createMixLinks, mixRequests } = require('./realistic-mix');

const root = join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 50);
const db = args.db ?? 'sqlite';
const kill = args.kill !== undefined;
const cases = args.only ? [String(args.only)] : ['single', 'mix'];
const rounds = Math.max(1, Number(args.rounds ?? 1));
const variants = buildVariants();
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SINGLE_HEADERS = { 'user-agent': BROWSER_UA, 'accept-language': 'en-US,en;q=0.9' };

function load(url, seconds, headers = {}, requests = undefined) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, headers, requests, pipelining: 1 },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

async function rawBaseline(mode) {
  const port = 3901;
  const child = fork(join(__dirname, 'raw-http-server.js'), [], {
    env: { ...process.env, PORT: String(port) },
  });
  await new Promise((resolve) => child.once('message', resolve));
  const url = `http://127.0.0.1:${port}/`;
  if (mode === 'mix') {
    await load(url, 2, {}, mixRequests(variants));
  } else {
    await load(url, 2, SINGLE_HEADERS);
  }
  const ticks = { server: threadTicks(child.pid), client: threadTicks(process.pid) };
  const result = summarize(
    mode === 'mix'
      ? await load(url, duration, {}, mixRequests(variants))
      : await load(url, duration, SINGLE_HEADERS),
    '3xx',
  );
  result.cpu = {
    server: threadCpu(child.pid, ticks.server, threadTicks(child.pid), duration),
    client: threadCpu(process.pid, ticks.client, threadTicks(process.pid), duration),
  };
  child.kill('SIGTERM');
  await exitOf(child);
  return result;
}

async function linkdock(mode, main = null) {
  const port = 3902;
  const { env, dataDir, cleanUp } = await benchServerEnv({
    port,
    db,
    prefix: 'bench',
    extra: {
      // The mix's client addresses arrive in X-Forwarded-For from the load generator, a trusted proxy.
      TRUSTED_PROXIES: '127.0.0.1',
      METRICS_TOKEN: 'bench-metrics-token-0123',
    },
  });
  const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
  if (args['node-options']) {
    env.NODE_OPTIONS = [env.NODE_OPTIONS, args['node-options']].filter(Boolean).join(' ');
  }
  const heapFile = args.heap
    ? join(tmpdir(), `linkdock-heap-${process.pid}-${Date.now()}.jsonl`)
    : null;
  if (heapFile) {
    env.LINKDOCK_HEAP_PROBE = heapFile;
    nodeArgs.push('--require', join(__dirname, 'heap-probe.js'));
  }
  const server = spawn(
    process.execPath,
    [...serverNodeFlags(), ...nodeArgs, main ?? join(root, 'dist/apps/api/src/main.js')],
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
  const rss = { boot: rssMb(server.pid) };
  const phases = { boot: Date.now() };
  let linkId = null;
  if (mode === 'mix') {
    await createMixLinks(base, key);
  } else {
    const created = await fetch(`${base}/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ location_url: 'https://example.com/landing', url: 'bench-link' }),
    });
    if (created.status !== 201)
      throw new Error(`creating the link failed: ${created.status} ${await created.text()}`);
    linkId = (await created.json()).data.id;
  }

  const run = (seconds) =>
    mode === 'mix'
      ? load(base, seconds, {}, mixRequests(variants))
      : load(`${base}/bench-link`, seconds, SINGLE_HEADERS);
  const warm = summarize(await run(2), '3xx');
  // The first visits load the geo database.
  while (!/Loaded the DB-IP city database/.test(output))
    await new Promise((r) => setTimeout(r, 100));
  rss.geo = rssMb(server.pid);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid) ?? 0)), 500);
  const ticks = { server: threadTicks(server.pid), client: threadTicks(process.pid) };
  phases.load = Date.now();
  const result = summarize(await run(duration), '3xx');
  phases.end = Date.now();
  const cpu = {
    server: threadCpu(server.pid, ticks.server, threadTicks(server.pid), duration),
    client: threadCpu(process.pid, ticks.client, threadTicks(process.pid), duration),
  };
  clearInterval(sampler);
  rss.load = Math.max(peak, rssMb(server.pid) ?? 0);
  // Visits counted but not written yet when the load stops: how far the writer is behind.
  const backlog = await visitBacklog(base);

  const stopping = performance.now();
  server.kill(kill ? 'SIGKILL' : 'SIGTERM');
  const exit = await exitOf(server);
  const stopMs = Math.round(performance.now() - stopping);
  const shutdown = /Visits: (\d+) counted, (\d+) written, (\d+) not written/.exec(output);
  if (!shutdown && !kill) throw new Error('the server did not report its visit counts on shutdown');
  const counted = shutdown ? Number(shutdown[1]) : null;
  const clientSaw = warm.ok + result.ok;
  const stored = await countVisits(db, dataDir, env.DATABASE_URL, linkId);
  await cleanUp();
  const heap = heapFile ? heapPeaks(heapFile, phases) : null;
  return { result, counted, clientSaw, stored, exit, rss, backlog, stopMs, cpu, heap };
}

/**
 * From heap-probe.js's samples, the peak of each isolate's figures (MB) after boot (until the load
 * starts: boot, the links, the warm-up, the geo database) and under the load.
 */
function heapPeaks(file, phases) {
  let lines = [];
  try {
    lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  const peaks = { boot: {}, load: {} };
  // The main isolate's collections during the load: the last sample before it and the last in it.
  const before = lines.filter((l) => l.t < phases.load).at(-1)?.gc;
  const during = lines.filter((l) => l.t <= phases.end).at(-1)?.gc;
  if (before && during) {
    peaks.gc = Object.fromEntries(
      Object.keys(during).map((k) => [k, Math.round(during[k] - before[k])]),
    );
  }
  for (const line of lines) {
    delete line.gc;
    const phase = line.t < phases.load ? 'boot' : line.t <= phases.end ? 'load' : null;
    if (!phase) continue;
    for (const [isolate, figures] of Object.entries(line)) {
      if (typeof figures !== 'object') continue;
      const peak = (peaks[phase][isolate] ??= {});
      for (const [name, mb] of Object.entries(figures)) peak[name] = Math.max(peak[name] ?? 0, mb);
    }
    const rss = peaks[phase];
    rss.rss = Math.max(rss.rss ?? 0, line.rss);
  }
  return peaks;
}

/** linkdock_visits_buffered_total − linkdock_visits_written_total, from /metrics. */
async function visitBacklog(base) {
  const response = await fetch(`${base}/metrics`, {
    headers: { Authorization: 'Bearer bench-metrics-token-0123' },
  });
  const text = await response.text();
  const value = (name) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return value('linkdock_visits_buffered_total') - value('linkdock_visits_written_total');
}

/**
 * Visit rows and links.clicks + links.bot_clicks of the one link, or (linkId null) of all links
 * (bots' visits are recorded apart, in bot_clicks; a --before build without the column has 0).
 */
async function countVisits(kind, dataDir, url, linkId) {
  const one = linkId !== null;
  if (kind === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    const hasBots = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'links' AND column_name = 'bot_clicks'`,
    );
    const sum = hasBots.rows.length > 0 ? 'clicks + bot_clicks' : 'clicks';
    const visits = one
      ? await client.query('SELECT COUNT(*)::int AS n FROM visits WHERE link_id = $1', [linkId])
      : await client.query('SELECT COUNT(*)::int AS n FROM visits');
    const clicks = one
      ? await client.query(`SELECT ${sum} AS clicks FROM links WHERE id = $1`, [linkId])
      : await client.query(`SELECT COALESCE(SUM(${sum}), 0)::int AS clicks FROM links`);
    await client.end();
    return { visits: visits.rows[0].n, clicks: Number(clicks.rows[0].clicks) };
  }
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(dataDir, 'linkdock.sqlite'), { readonly: true });
  const hasBots = sqlite
    .prepare('SELECT name FROM pragma_table_info(?)')
    .all('links')
    .some((c) => c.name === 'bot_clicks');
  const sum = hasBots ? 'clicks + bot_clicks' : 'clicks';
  const visits = one
    ? sqlite.prepare('SELECT COUNT(*) AS n FROM visits WHERE link_id = ?').get(linkId).n
    : sqlite.prepare('SELECT COUNT(*) AS n FROM visits').get().n;
  const clicks = one
    ? sqlite.prepare(`SELECT ${sum} AS clicks FROM links WHERE id = ?`).get(linkId).clicks
    : sqlite.prepare(`SELECT COALESCE(SUM(${sum}), 0) AS clicks FROM links`).get().clicks;
  sqlite.close();
  return { visits, clicks };
}

async function runCase(mode) {
  const title =
    mode === 'mix'
      ? 'realistic mix: 1,000 links, 34 user agents, 21 languages, referrers, UTM, many countries via a trusted proxy'
      : 'single link, one browser';
  console.log(`\n== ${title}`);
  /** Each build's ratios to its round's baseline, and the edge build's last result. */
  const ratios = new Map();
  let raw;
  let last;
  for (let round = 0; round < rounds; round += 1) {
    if (rounds > 1) console.log(`-- round ${round + 1} of ${rounds}`);
    raw = await rawBaseline(mode);
    const order = args.before ? ['before', 'edge'] : ['edge'];
    if (round % 2 === 1) order.reverse();
    const builds = [];
    for (const build of order) {
      builds.push(
        build === 'before'
          ? { name: 'linkdock before', edge: await linkdock(mode, args.before) }
          : { name: 'linkdock edge', edge: await linkdock(mode) },
      );
    }
    printRound(raw, builds);
    for (const { name, edge } of builds) {
      ratios.set(name, [...(ratios.get(name) ?? []), edge.result.rps / raw.rps]);
      if (name === 'linkdock edge') last = edge.result;
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  if (rounds > 1) {
    for (const [name, values] of ratios) {
      console.log(
        `${name} / baseline, mean of ${values.length} rounds: ${(mean(values) * 100).toFixed(1)} % ` +
          `(${values.map((v) => (v * 100).toFixed(1)).join(', ')})`,
      );
    }
  }
  const ratio = mean(ratios.get('linkdock edge'));
  const goal = mode === 'mix' ? 0.5 : 0.6;
  const p99ok = last.p99 <= 3 * raw.p99 + 3;
  console.log(
    `goal (>= ${goal}x raw node:http, p99 <= 3x raw's + 3 ms): ${ratio.toFixed(2)}x, p99 ${last.p99} vs ${3 * raw.p99 + 3} ms: ` +
      `${ratio >= goal && p99ok ? 'met' : 'NOT met'}`,
  );
}

/** One round of a case: the baseline, then each build against it. */
function printRound(raw, builds) {
  const row = (name, r) =>
    `${name.padEnd(26)} ${String(r.rps).padStart(8)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   non-redirects ${r.other}`;
  console.log(row('raw node:http (baseline)', raw));
  const total = (cpu) => cpu.main + cpu.busiest + cpu.others;
  console.log(
    `raw node:http CPU during the load, % of one core: server ${total(raw.cpu.server)}, load generator ${total(raw.cpu.client)}`,
  );
  for (const { name, edge } of builds) {
    console.log(row(name, edge.result));
    console.log(
      `${name} / baseline: ${((edge.result.rps / raw.rps) * 100).toFixed(1)} %   p99 ${edge.result.p99} ms vs ${raw.p99} ms   ` +
        `RSS after boot ${edge.rss.boot} MB, with the geo database ${edge.rss.geo} MB, under load ${edge.rss.load} MB\n` +
        `visits not yet written when the load stopped ${edge.backlog}   ${kill ? 'SIGKILL' : 'SIGTERM'} to exit ${edge.stopMs} ms\n` +
        `CPU during the load, % of one core: main thread ${edge.cpu.server.main}, busiest other thread (the visit writer) ` +
        `${edge.cpu.server.busiest}, other threads ${edge.cpu.server.others}; load generator ${total(edge.cpu.client)}`,
    );
    if (edge.heap) {
      for (const phase of ['boot', 'load']) {
        const peaks = edge.heap[phase];
        const isolates = Object.entries(peaks)
          .filter(([, figures]) => typeof figures === 'object')
          .map(
            ([isolate, f]) =>
              `  ${isolate.padEnd(24)} heap ${f.heap} MB (used ${f.used})` +
              (f.young !== undefined ? `, young generation ${f.young}, code ${f.code}` : '') +
              `, malloced ${f.malloced}` +
              (f.limit !== undefined ? `, limit ${f.limit}` : ''),
          );
        console.log(
          `peaks ${phase === 'boot' ? 'before the load' : 'under the load'} (RSS ${peaks.rss} MB):\n${isolates.join('\n')}`,
        );
      }
      const gc = edge.heap.gc;
      if (gc) {
        const per1000 = (n) => ((n / Math.max(edge.result.ok, 1)) * 1000).toFixed(2);
        console.log(
          `main isolate's GC during the load: ${gc.minor} young-generation collections (${gc.minorMs} ms), ` +
            `${gc.major} full (${gc.majorMs} ms); per 1,000 redirects ${per1000(gc.minor)} and ${per1000(gc.major)}, ` +
            `${per1000(gc.minorMs + gc.majorMs)} ms`,
        );
      }
    }
    if (kill) {
      const lost = edge.clientSaw - edge.stored.visits;
      console.log(
        `SIGKILL at the end of the load: redirects seen by the client ${edge.clientSaw}   recorded visits ${edge.stored.visits}   ` +
          `links.clicks ${edge.stored.clicks}   lost ${lost} (${((lost / edge.clientSaw) * 100).toFixed(2)} %)`,
      );
      continue;
    }
    console.log(
      `redirects seen by the client ${edge.clientSaw} (requests still in flight when a run ends are not seen; ` +
        `the mix's bots and tools are redirected and recorded apart, in links.bot_clicks)\n` +
        `counted redirects ${edge.counted}   recorded visits ${edge.stored.visits}   links.clicks + bot_clicks ${edge.stored.clicks}   ` +
        `${edge.counted === edge.stored.visits && edge.stored.visits === edge.stored.clicks ? 'MATCH' : 'MISMATCH'}   (server exit ${edge.exit})`,
    );
  }
}

(async () => {
  console.log(
    `bench:redirect  ${connections} connections, ${duration} s per run, database ${db}, node ${process.version}, ` +
      `Linkdock's node options: ${[...serverNodeFlags(), args['node-options'] ?? ''].join(' ').trim() || 'none'}`,
  );
  for (const mode of cases.filter((c) => c !== 'writes')) await runCase(mode);
  if (!args.only) await require('./bio-page-case').runBioPageCase({ db, duration, connections });
  if (!args.only || args.only === 'writes') {
    await require('./writes-beside-case').runWritesBesideCase(
      { db, duration, connections },
      args.before ?? null,
    );
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
