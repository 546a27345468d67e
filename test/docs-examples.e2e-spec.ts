import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import {
  BUILT,
  commandsOf,
  type Fence,
  freePort,
  isShell,
  looksLikeCommands,
  problemsOf,
  requireBuilt,
  scanFences,
  scriptOf,
  startBuilt,
  stopStarted,
  waitFor,
  writeZip,
} from '@app/testing';

/*
 * Every ```sh block of README.md and docs/*.md runs against the built server, started as
 * `npm start` starts it on a fresh SQLite database, and every curl in it answers the status its
 * comment documents (libs/testing/src/docs-examples.ts has the conventions). One server for all
 * the documents, each document in a shell session of its own (`bash` with -euo pipefail), in the
 * order README.md, then docs/ by name, so a document cannot lean on another's variables; the
 * examples take ids from earlier answers, never assume them. `npm run cli -- …` runs the built
 * CLI with the server's environment. SQLite only: the PostgreSQL project has nothing to add.
 */

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** Blocks that cannot run here, with the reason their marker gives: a new one is added here too. */
const SKIPPED = [
  ['README.md', 'installs and starts the service', 'npm install'],
  [
    'README.md',
    'needs Docker',
    'echo "SECRETS_KEY=$(openssl rand -base64 32)" > .env   # once; keep it with your backups',
  ],
  [
    'README.md',
    "the project's own test and lint commands",
    'npm test              # typecheck, build, unit, medium and e2e tests on SQLite and on PostgreSQL, the cluster test',
  ],
  [
    'README.md',
    'benchmarks: minutes of load each',
    'npm run bench:api       # API req/s, p50, p99 against a bare express app and a bare NestJS app (-- --db postgres)',
  ],
  [
    'docs/links.md',
    'fetches the destinations of real links on the internet',
    'npm run cli -- links:check-destinations --email owner@example.com',
  ],
  [
    'docs/links.md',
    'a synopsis, not a command',
    'npm run cli -- import --email you@example.com --from bitly|yourls|kutt|shlink|csv FILE \\',
  ],
];

const scanned = DOCUMENTS.map((file) => scanFences(file, readFileSync(join(ROOT, file), 'utf8')));
const fences = scanned.flatMap((s) => s.fences);
const runnable = (file: string): Fence[] =>
  fences.filter((f) => f.file === file && isShell(f) && f.skip === null);

/** The files the examples name as the reader's own (`-F file=@site.zip`). */
async function writeReaderFiles(dir: string): Promise<void> {
  writeFileSync(
    join(dir, 'site.zip'),
    writeZip([
      { name: 'index.html', data: '<!doctype html><title>Spring sale</title><h1>Spring sale</h1>' },
      { name: 'style.css', data: 'h1{color:#1d3557}' },
    ]),
  );
  writeFileSync(
    join(dir, 'v2.zip'),
    writeZip([
      { name: 'index.html', data: '<!doctype html><title>Spring sale</title><h1>v2</h1>' },
    ]),
  );
  const logo = sharp({ create: { width: 64, height: 64, channels: 4, background: '#1d3557' } });
  writeFileSync(join(dir, 'logo.png'), await logo.png().toBuffer());
}

/**
 * What every script starts with: curl wrapped to record and check each answer's status, npm's
 * `run cli` as the built CLI, and a stand-in for jq (`-r` and a path only) where jq is missing.
 */
function prelude(hasJq: boolean): string {
  return `set -euo pipefail
__docs_status=''; __docs_where=''; __docs_location=''
__docs_expect() { __docs_status=$1; __docs_where=$2; __docs_location=$3; }
curl() {
  if [ -z "$__docs_status" ]; then
    echo "$__docs_where: curl without a documented status (# 200 ...)" >&2; return 97
  fi
  local head status location rc=0
  head=$(mktemp)
  command curl -sS -D "$head" "$@" || rc=$?
  status=$(grep -a '^HTTP/' "$head" | tail -n 1 | cut -d' ' -f2 || true)
  location=$(grep -ai '^location:' "$head" | tail -n 1 | cut -d' ' -f2- | tr -d '\\r' || true)
  rm -f "$head"
  printf '%s %s\\n' "$__docs_where" "\${status:-none}" >> "$DOCS_LOG"
  if [ "$rc" != 0 ]; then echo "$__docs_where: curl failed ($rc)" >&2; return "$rc"; fi
  if [ "$status" != "$__docs_status" ]; then
    echo "$__docs_where: answered $status, the docs say $__docs_status" >&2; return 98
  fi
  if [ -n "$__docs_location" ] && [ "$location" != "$__docs_location" ]; then
    echo "$__docs_where: Location $location, the docs say $__docs_location" >&2; return 98
  fi
}
npm() {
  local silent=''
  if [ "\${1-}" = run ] && { [ "\${2-}" = -s ] || [ "\${2-}" = --silent ]; }; then
    silent=1; set -- run "\${@:3}"
  fi
  if [ "\${1-}" = run ] && [ "\${2-}" = cli ] && [ "\${3-}" = -- ]; then
    shift 3
    if [ -z "$silent" ]; then
      printf '\\n> ${PACKAGE.name}@${PACKAGE.version} cli\\n> node scripts/run-built.js apps/cli/src/main %s\\n\\n' "$*"
    fi
    node "$DOCS_CLI" "$@"
    return
  fi
  echo "$__docs_where: npm $* does not run in this test: mark its block <!-- docs-test: skip (why) -->" >&2
  return 127
}
${
  hasJq
    ? ''
    : `jq() {
  node -e '
    const [flag, filter] = process.argv.slice(1);
    if (flag !== "-r" || !/^(\\.[A-Za-z_][A-Za-z0-9_]*|\\[[0-9]+\\])+$/.test(filter)) {
      console.error("jq is not installed; its stand-in reads only jq -r .path[0].path");
      process.exit(2);
    }
    let value = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
    for (const [, key, index] of filter.matchAll(/\\.([A-Za-z_][A-Za-z0-9_]*)|\\[([0-9]+)\\]/g)) {
      value = value == null ? null : value[key ?? Number(index)];
    }
    console.log(typeof value === "string" ? value : JSON.stringify(value ?? null));
  ' -- "$@"
}`
}
`;
}

function runBash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('The examples of the docs', () => {
  const work = mkdtempSync(join(tmpdir(), 'linkdock-docs-'));
  const dataDir = join(work, 'data');
  let url = '';
  let key = '';
  const hasJq = spawnSync('sh', ['-c', 'command -v jq'], { env: process.env }).status === 0;

  beforeAll(async () => {
    requireBuilt(BUILT.api);
    requireBuilt(CLI);
    mkdirSync(dataDir);
    const port = await freePort();
    url = `http://localhost:${port}`;
    const server = startBuilt(BUILT.api, {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
    });
    await waitFor(() => server.output().includes('Linkdock is listening'), 90_000, server.output);
    key = /\b(ld_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1] ?? '';
    expect(key).not.toBe('');
  }, 120_000);

  afterAll(async () => {
    await stopStarted();
    rmSync(work, { recursive: true, force: true });
  });

  it('follow the conventions: commands in sh blocks, a status for every curl, markers before fences', () => {
    const problems = [
      ...scanned.flatMap((s) => s.problems),
      ...fences
        .filter(looksLikeCommands)
        .map((f) => `${f.file}:${f.line}: a block of commands is \`\`\`sh`),
      ...DOCUMENTS.flatMap((file) => problemsOf(runnable(file))),
    ];
    expect(problems).toEqual([]);
  });

  it('skip only the blocks that cannot run here, each with its reason', () => {
    const skipped = fences.filter((f) => f.skip !== null).map((f) => [f.file, f.skip, f.lines[0]]);
    expect(skipped).toEqual(SKIPPED);
  });

  const documents = DOCUMENTS.filter((file) => runnable(file).length > 0);

  it('cover every document with an example', () => {
    expect(documents).toEqual([
      'README.md',
      'docs/billing.md',
      'docs/bio-pages.md',
      'docs/links.md',
      'docs/projects.md',
      'docs/qr-codes.md',
      'docs/static-sites.md',
      'docs/teams.md',
      'docs/visitors.md',
    ]);
  });

  it.each(documents)(
    'in %s run in order and answer what they say',
    async (file) => {
      const dir = mkdtempSync(join(work, 'reader-'));
      await writeReaderFiles(dir);
      const log = join(dir, 'answers.log');
      writeFileSync(log, '');
      const blocks = runnable(file);
      const script = `${prelude(hasJq)}${scriptOf(blocks, url, key)}echo __DOCS_DONE__\n`;
      const { code, output } = await runBash(script, dir, {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        HOME: dir,
        DATA_DIR: dataDir,
        APP_URL: url,
        DOCS_LOG: log,
        DOCS_CLI: CLI,
      });
      const answered = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const documented = blocks
        .flatMap(commandsOf)
        .filter((c) => c.runsCurl)
        .map((c) => `${c.where} ${c.status}`);
      // On a failure, what the shell printed says which command and why.
      const done = output.includes('__DOCS_DONE__');
      expect({ code, done, answered, output: code === 0 && done ? '' : output }).toEqual({
        code: 0,
        done: true,
        answered: documented,
        output: '',
      });
    },
    180_000,
  );
});
