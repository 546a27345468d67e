#!/usr/bin/env node
// npm run bench:stats [-- --db sqlite|postgres --visits 10000000 --runs 200]
//
// Seeds one account with `visits` visits spread over the last 365 days (50 links, 5 projects,
// realistic skewed distributions of countries, cities, referrers, devices and UTM tags): the raw
// visits go straight into the visits table and the roll-ups are written by the same rollUp() and
// writers the visit flush uses. Then starts the built server on that database and times the
// statistics API over HTTP (sequential requests, after a warm-up), and compares with the baseline
// of the same answers computed from the raw visits, which they must equal (exit code 1 if not).
// Prints the query plans (EXPLAIN). Then times GET /health while two clients read statistics,
// and while the busiest link is deleted: how long everyone else waits for a dashboard or a delete.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { benchServerEnv, parseArgs, waitForUrl } = require('./lib');

const root = join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const db = args.db ?? 'sqlite';
const TOTAL = Number(args.visits ?? 10_000_000);
const RUNS = Number(args.runs ?? 200);
const DAYS = 365;
const LINKS = 50;
const PROJECTS = 5;
const DAY_MS = 86_400_000;

const { rollUp } = require(join(root, 'dist/libs/database/src/rollups/rollups.js'));
const { rollupUpserts } = require(join(root, 'dist/libs/database/src/rollups/rollup-writer.js'));
const { sqliteUpserts } = require(
  join(root, 'dist/libs/database/src/engine/sqlite/upsert-rows.js'),
);
const { writeUpsertsPostgres } = require(
  join(root, 'dist/libs/database/src/engine/postgres/upsert-rows.js'),
);
const { StatisticsRepository } = require(
  join(root, 'dist/libs/analytics/src/statistics.repository.js'),
);
const { monthsClosedThrough } = require(
  join(root, 'dist/libs/database/src/rollups/closed-months.js'),
);

// ---------------------------------------------------------------- data

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(42);

/** Picks from `values` with Zipf-like weights 1/(rank+1)^s. */
function zipf(values, s = 1.1) {
  const cumulative = [];
  let sum = 0;
  values.forEach((_, i) => {
    sum += 1 / Math.pow(i + 1, s);
    cumulative.push(sum);
  });
  return () => {
    const x = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < x) low = mid + 1;
      else high = mid;
    }
    return values[low];
  };
}

const COUNTRIES = [
  ['US', 'NA'],
  ['DE', 'EU'],
  ['GB', 'EU'],
  ['IN', 'AS'],
  ['FR', 'EU'],
  ['BR', 'SA'],
  ['CA', 'NA'],
  ['JP', 'AS'],
  ['ES', 'EU'],
  ['IT', 'EU'],
  ['NL', 'EU'],
  ['AU', 'OC'],
  ['MX', 'NA'],
  ['PL', 'EU'],
  ['SE', 'EU'],
  ['TR', 'AS'],
  ['ID', 'AS'],
  ['KR', 'AS'],
  ['AR', 'SA'],
  ['ZA', 'AF'],
  ['NG', 'AF'],
  ['EG', 'AF'],
  ['PH', 'AS'],
  ['VN', 'AS'],
  ['CH', 'EU'],
  ['AT', 'EU'],
  ['BE', 'EU'],
  ['PT', 'EU'],
  ['NO', 'EU'],
  ['DK', 'EU'],
  ['FI', 'EU'],
  ['IE', 'EU'],
  ['NZ', 'OC'],
  ['CL', 'SA'],
  ['CO', 'SA'],
  ['PE', 'SA'],
  ['KE', 'AF'],
  ['MA', 'AF'],
  ['IL', 'AS'],
  ['AE', 'AS'],
  ['SA', 'AS'],
  ['SG', 'AS'],
  ['MY', 'AS'],
  ['TH', 'AS'],
  ['UA', 'EU'],
  ['RO', 'EU'],
  ['CZ', 'EU'],
  ['HU', 'EU'],
  ['GR', 'EU'],
  ['BG', 'EU'],
  ['RS', 'EU'],
  ['HR', 'EU'],
  ['SK', 'EU'],
  ['LT', 'EU'],
  ['LV', 'EU'],
  ['EE', 'EU'],
  ['IS', 'EU'],
  ['PK', 'AS'],
  ['BD', 'AS'],
  ['LK', 'AS'],
];
const pickCountry = zipf(COUNTRIES, 1.2);
const cityPickers = new Map(
  COUNTRIES.map(([code]) => [
    code,
    zipf(
      Array.from({ length: 40 }, (_, i) => `${code} City ${i + 1}`),
      1.3,
    ),
  ]),
);
const HOSTS = Array.from({ length: 400 }, (_, i) =>
  i === 0 ? 'www.google.com' : i === 1 ? 't.co' : i === 2 ? 'www.facebook.com' : `site${i}.example`,
);
const pickHost = zipf(HOSTS, 1.1);
const pickPath = zipf(
  Array.from({ length: 50 }, (_, i) => `/article/${i + 1}`),
  1.2,
);
const pickOs = zipf(['Windows', 'iOS', 'Android', 'Mac OS', 'Linux', 'Chromium OS']);
const pickBrowser = zipf([
  'Chrome',
  'Mobile Safari',
  'Safari',
  'Edge',
  'Firefox',
  'Samsung Browser',
]);
const pickDevice = zipf(['desktop', 'mobile', 'tablet'], 0.8);
const pickLanguage = zipf([
  'en',
  'de',
  'es',
  'fr',
  'pt',
  'ja',
  'it',
  'nl',
  'pl',
  'ru',
  'tr',
  'ko',
  'zh',
  'sv',
  'hi',
]);
const pickSource = zipf([
  'newsletter',
  'twitter',
  'facebook',
  'linkedin',
  'google',
  'reddit',
  'partner',
  'podcast',
]);
const pickMedium = zipf(['email', 'social', 'cpc', 'referral', 'display']);
const pickCampaign = zipf(Array.from({ length: 40 }, (_, i) => `campaign-${i + 1}`));
const HOUR_WEIGHTS = [
  1, 0.6, 0.4, 0.3, 0.3, 0.5, 1, 2, 3, 3.5, 3.6, 3.5, 3.4, 3.5, 3.6, 3.6, 3.5, 3.3, 3, 2.8, 2.5,
  2.2, 1.8, 1.3,
];
const hourCumulative = [];
HOUR_WEIGHTS.reduce((sum, w) => (hourCumulative.push(sum + w), sum + w), 0);
function hourOfDay() {
  const x = random() * hourCumulative[23];
  return hourCumulative.findIndex((c) => c >= x);
}

function makeVisit(linkId, dayStart) {
  const [country, continent] = pickCountry();
  const direct = random() < 0.4;
  const host = direct ? null : pickHost();
  const utm = random() < 0.3;
  return {
    link_id: linkId,
    datetime: new Date(dayStart + hourOfDay() * 3_600_000 + Math.floor(random() * 3_600_000)),
    referrer_host: host,
    referrer_path: host ? pickPath() : null,
    utm_source: utm ? pickSource() : null,
    utm_medium: utm ? pickMedium() : null,
    utm_campaign: utm ? pickCampaign() : null,
    continent_code: continent,
    country_code: country,
    city_name: cityPickers.get(country)(),
    os_name: pickOs(),
    browser_name: pickBrowser(),
    device_type: pickDevice(),
    browser_language: pickLanguage(),
    is_unique: random() < 0.7,
    visitor_hash: 'f'.repeat(32),
  };
}

// ---------------------------------------------------------------- servers and databases

function startServer(env) {
  const server = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const state = { server, output: '' };
  server.stdout.on('data', (chunk) => (state.output += chunk));
  return state;
}

async function stopServer(state) {
  const exited = new Promise((resolve) => state.server.once('exit', resolve));
  state.server.kill('SIGTERM');
  await exited;
}

async function api(base, key, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** A query function and a writer-compatible manager for the seeded database. */
async function openDatabase(env, dataDir) {
  if (db === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const query = (sql, params) => client.query(sql, params).then((r) => r.rows);
    return { kind: 'postgres', client, query, close: () => client.end() };
  }
  const Database = require('better-sqlite3');
  const sqlite = new Database(join(dataDir, 'linkdock.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF'); // seeding only
  const query = async (sql, params = []) => {
    const statement = sqlite.prepare(sql);
    return statement.reader ? statement.all(...params) : (statement.run(...params), []);
  };
  return { kind: 'sqlite', sqlite, query, close: async () => sqlite.close() };
}

const { VISIT_COLUMNS, POSTGRES_ARRAY_TYPES } = require(
  join(root, 'dist/libs/database/src/rollups/visit-columns.js'),
);
const dbTime = (d) => d.toISOString().replace('T', ' ').replace('Z', '');

async function seed(database, userId, linkIds) {
  const owners = new Map(linkIds.map((id) => [id, { userId, timeZone: 'UTC' }]));
  const pickLink = zipf(linkIds, 1.0);
  const today = Math.floor(Date.now() / DAY_MS);
  const clicks = new Map();
  let inserted = 0;
  let sqliteInsert;
  let sqliteWriter;
  if (database.kind === 'sqlite') {
    sqliteInsert = database.sqlite.prepare(
      `INSERT INTO "visits" (${VISIT_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${VISIT_COLUMNS.map(() => '?').join(', ')})`,
    );
    sqliteWriter = sqliteUpserts(database.sqlite);
  }
  const pgManager = { query: (sql, params) => database.query(sql, params) };
  for (let d = DAYS - 1; d >= 0; d--) {
    const dayStart = (today - d) * DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    const weight = weekday === 0 || weekday === 6 ? 0.75 : 1.1;
    const count = Math.round(((TOTAL / DAYS) * weight) / ((0.75 * 2 + 1.1 * 5) / 7));
    const n = d === 0 ? Math.max(TOTAL - inserted, 0) : Math.min(count, TOTAL - inserted);
    const visits = Array.from({ length: n }, () => makeVisit(pickLink(), dayStart));
    visits.sort((a, b) => a.datetime - b.datetime);
    for (const v of visits) clicks.set(v.link_id, (clicks.get(v.link_id) ?? 0) + 1);
    const rollups = rollUp(visits, owners);
    if (database.kind === 'sqlite') {
      database.sqlite.transaction(() => {
        for (const v of visits) {
          sqliteInsert.run(
            VISIT_COLUMNS.map((c) =>
              c === 'datetime' ? dbTime(v[c]) : c === 'is_unique' ? (v[c] ? 1 : 0) : v[c],
            ),
          );
        }
        sqliteWriter.write(rollupUpserts(rollups));
      })();
    } else {
      await database.query('BEGIN');
      for (let i = 0; i < visits.length; i += 20_000) {
        const chunk = visits.slice(i, i + 20_000);
        await database.query(
          `INSERT INTO "visits" (${VISIT_COLUMNS.map((c) => `"${c}"`).join(', ')}) SELECT * FROM unnest(${VISIT_COLUMNS.map((c, j) => `$${j + 1}::${POSTGRES_ARRAY_TYPES[c]}`).join(', ')})`,
          VISIT_COLUMNS.map((c) => chunk.map((v) => (c === 'datetime' ? dbTime(v[c]) : v[c]))),
        );
      }
      await writeUpsertsPostgres(pgManager, rollupUpserts(rollups));
      await database.query('COMMIT');
    }
    inserted += n;
    if (d % 73 === 0) {
      process.stdout.write(`  seeded ${inserted.toLocaleString('en')} visits\n`);
    }
  }
  for (const [id, n] of clicks) {
    await database.query(
      database.kind === 'postgres'
        ? 'UPDATE "links" SET "clicks" = $1 WHERE "id" = $2'
        : 'UPDATE "links" SET "clicks" = ? WHERE "id" = ?',
      [n, id],
    );
  }
  if (database.kind === 'postgres') {
    await database.query('ANALYZE');
  } else {
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    database.sqlite.exec('ANALYZE');
  }
  return inserted;
}

// ---------------------------------------------------------------- timing

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(label, fn, runs) {
  for (let i = 0; i < Math.min(10, runs); i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99), runs };
}

const fmt = (ms) => `${ms.toFixed(1).padStart(7)} ms`;

(async () => {
  console.log(
    `bench:stats  database ${db}, ${TOTAL.toLocaleString('en')} visits over ${DAYS} days, ${LINKS} links, node ${process.version}`,
  );
  const port = 3903;
  const { env, dataDir, cleanUp } = await benchServerEnv({
    port,
    db,
    prefix: 'bench_stats',
    extra: { LOG_LEVEL: 'warn', API_RATE_LIMIT: '1000000' },
    redis: false,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    // 1. An account with projects and links, made through the API.
    let state = startServer({ ...env, LOG_LEVEL: 'info' });
    await waitForUrl(`${base}/health`);
    while (!/ld_[A-Za-z0-9_-]{20,}/.test(state.output))
      await new Promise((r) => setTimeout(r, 100));
    const key = /ld_[A-Za-z0-9_-]{20,}/.exec(state.output)[0];
    const user = (await api(base, key, 'GET', '/v1/user')).data;
    const projects = [];
    for (let i = 0; i < PROJECTS; i++) {
      projects.push(
        (await api(base, key, 'POST', '/v1/projects', { name: `Project ${i + 1}` })).data.id,
      );
    }
    const links = [];
    for (let i = 0; i < LINKS; i++) {
      const created = await api(base, key, 'POST', '/v1/links', {
        location_url: `https://example.com/${i}`,
        url: `bench-${i}`,
        project_id: projects[i % PROJECTS],
      });
      links.push(created.data.id);
    }
    await stopServer(state);

    // 2. Seed.
    const database = await openDatabase(env, dataDir);
    const seedStart = Date.now();
    const seeded = await seed(database, user.id, links);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    const rollupRows = {};
    for (const table of [
      'visits',
      'stats_link_quarters',
      'stats_user_quarters',
      'stats_link_dimensions',
      'stats_user_dimensions',
    ]) {
      const rows = await database.query(`SELECT COUNT(*) AS n FROM "${table}"`);
      rollupRows[table] = Number(rows[0].n);
    }
    console.log(
      `seeding: ${seeded.toLocaleString('en')} visits in ${seedSeconds.toFixed(1)} s (${Math.round(seeded / seedSeconds).toLocaleString('en')}/s, roll-ups included)`,
    );
    console.log(
      `rows: ${Object.entries(rollupRows)
        .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
        .join(', ')}`,
    );

    // 3. The plans of the statistics queries, from the same builder the API uses.
    const query = (sql, params) => database.query(sql, params);
    const repo = new StatisticsRepository({
      options: { type: db === 'postgres' ? 'postgres' : 'better-sqlite3' },
      query,
      manager: { query },
    });
    const today = Math.floor(Date.now() / DAY_MS);
    // The breakdowns take whole months up to the closed-months mark, as the API's do.
    const closed = await monthsClosedThrough({ query });
    const userScope = { kind: 'user', userId: user.id };
    const explainOne = async (name, built) => {
      const plan = await repo.explain(built);
      console.log(`plan, ${name}:\n  ${plan.split('\n').join('\n  ')}`);
    };
    await explainOne(
      'one-year overview (stats_user_quarters)',
      repo.seriesQuery(
        userScope,
        { startBucket: (today - 364) * 96, endBucket: (today + 1) * 96, offsetQuarters: 0 },
        96,
      ),
    );
    await explainOne(
      '30-day country breakdown (stats_user_dimensions)',
      repo.dimensionQuery(
        userScope,
        { dimension: 'country_code', firstDay: today - 29, lastDay: today },
        25,
        0,
        closed,
      ),
    );
    await explainOne(
      'one-year referrer breakdown (whole months from stats_user_dimension_months, the days around them from stats_user_dimensions)',
      repo.dimensionQuery(
        userScope,
        { dimension: 'referrer_host', firstDay: today - 364, lastDay: today },
        25,
        0,
        closed,
      ),
    );
    await explainOne(
      'project referrer breakdown (stats_link_dimensions)',
      repo.dimensionQuery(
        { kind: 'links', userId: user.id, linkId: null, projectId: projects[0] },
        { dimension: 'referrer_host', firstDay: today - 29, lastDay: today },
        25,
        0,
        closed,
      ),
    );

    // 4. Time the API.
    state = startServer(env);
    await waitForUrl(`${base}/health`);
    const day = (n) => new Date((today - n) * DAY_MS).toISOString().slice(0, 10);
    const year = `start_date=${day(364)}&end_date=${day(0)}`;
    const get = (path) => async () => {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const goalQueries = [
      ['one-year overview (by month)', `/v1/statistics?${year}`],
      ['30-day overview (by day)', '/v1/statistics'],
      ['30-day country breakdown', '/v1/statistics?type=country_code'],
      ['30-day referrer breakdown', '/v1/statistics?type=referrer_host'],
    ];
    const moreQueries = [
      ['one-year overview by day', `/v1/statistics?${year}&granularity=day`],
      ['one-year country breakdown', `/v1/statistics?type=country_code&${year}`],
      ['one-year referrer breakdown', `/v1/statistics?type=referrer_host&${year}`],
      ['one-year city breakdown', `/v1/statistics?type=city_name&${year}`],
      ['one-year hours of the day', `/v1/statistics?type=hour&${year}`],
      ['one day by hour', `/v1/statistics?start_date=${day(1)}&end_date=${day(1)}`],
      ['one-year overview, top link', `/v1/statistics/${links[0]}?${year}`],
      ['one-year overview, a project', `/v1/statistics?project_id=${projects[0]}&${year}`],
      [
        '30-day referrer breakdown, a project',
        `/v1/statistics?type=referrer_host&project_id=${projects[0]}`,
      ],
      ['30-day overview, Asia/Kolkata', '/v1/statistics?timezone=Asia/Kolkata'],
    ];
    const results = [];
    for (const [label, path] of [...goalQueries, ...moreQueries]) {
      results.push(await time(label, get(path), RUNS));
    }
    const health = await time('GET /health (HTTP floor)', get('/health'), RUNS);
    // What a dashboard's reads cost everyone else: GET /health, one request at a time, while two
    // clients read one-year statistics without pause. On SQLite a statement held the event loop.
    let reading = true;
    const readers = [
      `/v1/statistics?type=country_code&${year}`,
      `/v1/statistics?${year}&granularity=day`,
    ].map(async (path) => {
      while (reading) await get(path)();
    });
    const beside = await time('GET /health beside 2 statistics readers', get('/health'), RUNS);
    reading = false;
    await Promise.all(readers);
    const answer = async (path) => {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()).data;
    };
    const apiDays = await answer(`/v1/statistics?${year}&granularity=day&timezone=UTC`);
    const apiCountries = await answer(
      '/v1/statistics?type=country_code&results_per_page=1000&timezone=UTC',
    );
    await stopServer(state);

    // 5. Baseline: the same answers from the raw visits (what the roll-ups save).
    const ts = (n) => dbTime(new Date((today - n) * DAY_MS));
    const baselineRuns = Math.max(3, Math.min(10, Math.round(RUNS / 20)));
    const p = (i) => (db === 'postgres' ? `$${i}` : '?');
    const ofUser = `"link_id" IN (SELECT "id" FROM "links" WHERE "user_id" = ${p(1)}) AND "datetime" >= ${p(2)}`;
    const rawDays = () =>
      database.query(
        `SELECT substr(CAST("datetime" AS TEXT), 1, 10) AS d, COUNT(*) AS pv, SUM(CASE WHEN "is_unique" THEN 1 ELSE 0 END) AS uv FROM "visits" WHERE ${ofUser} GROUP BY d`,
        [user.id, ts(364)],
      );
    const rawCountries = () =>
      database.query(
        `SELECT "country_code" AS c, COUNT(*) AS pv FROM "visits" WHERE ${ofUser} GROUP BY "country_code" ORDER BY pv DESC`,
        [user.id, ts(29)],
      );
    const baseline = [
      await time('raw visits: one-year overview by day', rawDays, baselineRuns),
      await time('raw visits: 30-day country breakdown', rawCountries, baselineRuns),
    ];

    // 6. The roll-ups' answers must be the raw visits' answers.
    const asText = (entries) => JSON.stringify(entries.sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    const daysMatch =
      asText((await rawDays()).map((r) => [r.d, Number(r.pv), Number(r.uv)])) ===
      asText(
        apiDays
          .filter((r) => r.pageviews > 0)
          .map((r) => [r.formatted_date, r.pageviews, r.visitors]),
      );
    const countriesMatch =
      asText((await rawCountries()).map((r) => [r.c, Number(r.pv)])) ===
      asText(apiCountries.map((r) => [r.country_code, r.pageviews]));

    // 7. Deleting the busiest link (its visits and roll-ups go with it), while GET /health runs
    //    one request at a time: how long everyone else waits meanwhile.
    const top = links[0];
    const q = db === 'postgres' ? '$1' : '?';
    const sizes = {};
    for (const table of ['visits', 'stats_link_quarters', 'stats_link_dimensions']) {
      const rows = await database.query(
        `SELECT COUNT(*) AS n FROM "${table}" WHERE "link_id" = ${q}`,
        [top],
      );
      sizes[table] = Number(rows[0].n);
    }
    await database.close();
    state = startServer(env);
    await waitForUrl(`${base}/health`);
    let polling = true;
    const waits = [];
    const poll = (async () => {
      while (polling) {
        const start = performance.now();
        await get('/health')();
        waits.push(performance.now() - start);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deleteStart = performance.now();
    const deleted = await fetch(`${base}/v1/links/${top}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${key}` },
    });
    const deleteMs = performance.now() - deleteStart;
    polling = false;
    await poll;
    await stopServer(state);
    waits.sort((a, b) => a - b);

    console.log('');
    console.log(`${'query'.padEnd(40)} ${'p50'.padStart(10)} ${'p99'.padStart(10)}   runs`);
    const line = (r) =>
      console.log(`${r.label.padEnd(40)} ${fmt(r.p50)} ${fmt(r.p99)}   ${r.runs}`);
    results.slice(0, goalQueries.length).forEach(line);
    console.log('  more:');
    results.slice(goalQueries.length).forEach(line);
    line(health);
    line(beside);
    console.log('  baseline (SQL over the raw visits, no HTTP):');
    baseline.forEach(line);
    console.log(
      `answers equal the raw visits' (one-year days with pageviews and visitors, 30-day countries): ${daysMatch && countriesMatch ? 'yes' : `NO (days ${daysMatch}, countries ${countriesMatch})`}`,
    );
    if (!daysMatch || !countriesMatch) process.exitCode = 1;
    console.log(
      `DELETE the busiest link (${Object.entries(sizes)
        .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
        .join(
          ', ',
        )} rows): ${deleted.status} in ${deleteMs.toFixed(0)} ms; GET /health meanwhile: ` +
        `${waits.length} answered, p50 ${waits[waits.length >> 1].toFixed(1)} ms, longest ${waits[waits.length - 1].toFixed(0)} ms`,
    );
    if (deleted.status !== 200) process.exitCode = 1;
    const worst = Math.max(...results.slice(0, goalQueries.length).map((r) => r.p99));
    console.log(
      `goal (p99 <= 50 ms for the four goal queries): ${worst <= 50 ? 'met' : 'NOT met'} (worst p99 ${worst.toFixed(1)} ms)`,
    );
  } finally {
    await cleanUp();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
