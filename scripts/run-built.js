#!/usr/bin/env node
// Runs a compiled entry point (e.g. the CLI), building first when any source is newer than the
// build. Build output goes to stderr so that the entry's own last stdout line stays its result.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const [entry, ...args] = process.argv.slice(2);
const output = join(root, 'dist', `${entry}.js`);

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) {
      newest = Math.max(newest, newestSource(path));
    } else if (item.name.endsWith('.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

const sources = Math.max(
  newestSource(join(root, 'apps')),
  newestSource(join(root, 'libs')),
  statSync(join(root, 'tsconfig.json')).mtimeMs,
);
if (!existsSync(output) || statSync(output).mtimeMs < sources) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0) {
    process.exit(build.status ?? 1);
  }
}
const run = spawnSync(process.execPath, [output, ...args], {
  cwd: process.cwd(),
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
