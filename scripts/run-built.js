#!/usr/bin/env node
// Runs a compiled entry point (the server, the worker, the CLI), building first only when the
// build is missing or some source is newer than it. Build output goes to stderr so that the
// entry's own last stdout line stays its result.
//
// It stays between npm and the entry for as long as the entry runs, and behaves as the entry to
// whoever signals it: SIGTERM, SIGINT and SIGHUP are passed on to the child, and this process ends
// the way the child did, with its exit code or by its signal. npm passes SIGTERM and SIGINT only
// to its own child, the `sh -c` that runs the script, which dies of them without passing them on
// (dash does not exec the last command): the scripts that run this one start with `exec`.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { constants } = require('node:os');
const { isatty } = require('node:tty');

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];
// In a terminal, Ctrl-C (SIGINT) and a hang-up (SIGHUP) reach every process of the foreground job,
// the child included: passing them on as well would turn one Ctrl-C into two, and the worker
// stops at once on the second.
const FROM_TERMINAL = isatty(0) ? ['SIGINT', 'SIGHUP'] : [];
const root = join(__dirname, '..');
// Node options (`--max-semi-space-size=16`) come before the entry and go to the child's node.
const given = process.argv.slice(2);
const nodeOptions = [];
while (given.length > 0 && given[0].startsWith('--')) nodeOptions.push(given.shift());
const [entry, ...args] = given;
const output = join(root, 'dist', `${entry}.js`);

// What the build leaves out (tsconfig.build.json): changing it does not make the build stale.
const NOT_BUILT = new Set([join(root, 'libs', 'testing')]);

function newestSource(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (NOT_BUILT.has(path)) continue;
    if (item.isDirectory()) {
      newest = Math.max(newest, newestSource(path));
    } else if (item.name.endsWith('.ts') && !item.name.endsWith('.spec.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function buildIsStale() {
  if (!existsSync(output)) return true;
  const sources = Math.max(
    newestSource(join(root, 'apps')),
    newestSource(join(root, 'libs')),
    statSync(join(root, 'tsconfig.json')).mtimeMs,
    statSync(join(root, 'tsconfig.build.json')).mtimeMs,
  );
  return statSync(output).mtimeMs < sources;
}

/** Runs `command`, passing signals on; resolves with how it ended. */
function run(command, commandArgs, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, options);
    const pass = (signal) => {
      if (!FROM_TERMINAL.includes(signal)) child.kill(signal);
    };
    SIGNALS.forEach((signal) => process.on(signal, pass));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      SIGNALS.forEach((s) => process.off(s, pass));
      resolve({ code, signal });
    });
  });
}

/** Ends this process as the child ended: the same code, or the same signal. */
function endLike({ code, signal }) {
  if (signal) {
    process.kill(process.pid, signal);
    // Should this process survive the signal, it ends with the shell's code for it.
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 1000);
    return;
  }
  process.exit(code ?? 1);
}

async function main() {
  if (buildIsStale()) {
    process.stderr.write(`Building (${entry} is missing or older than the sources)\n`);
    const build = await run('npm', ['run', '--silent', 'build'], {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr],
    });
    if (build.signal || build.code !== 0) {
      endLike(build);
      return;
    }
  }
  endLike(
    await run(process.execPath, [...nodeOptions, output, ...args], {
      cwd: process.cwd(),
      stdio: 'inherit',
    }),
  );
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
