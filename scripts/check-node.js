#!/usr/bin/env node
// Stops `npm test` (and anything else that runs it first) with one line when the running Node.js
// is older than package.json's engines allow: better-sqlite3 13 crashes on Node 20 instead of
// failing with a message.
'use strict';
const { engines } = require('../package.json');

const needed = Number(/(\d+)/.exec(engines.node)[1]);
const running = Number(process.versions.node.split('.')[0]);
if (running < needed) {
  process.stderr.write(
    `Linkdock needs Node.js ${needed} or newer (this is ${process.version}): run \`nvm use\` ` +
      '(.nvmrc), or on Linux x64 `source scripts/node24.sh`, which fetches Node 24 from the npm registry.\n',
  );
  process.exit(1);
}
