// Reads content the third-wave rules changed back with Debian's zbarimg (zbar-tools), a decoder
// outside the project and outside CI: `npm run build && node scripts/qr-content-zbar.js`. Prints
// each payload and whether zbar read it byte for byte; exits 1 when one differs.
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { renderQr, encodeContent } = require(join(__dirname, '..', 'dist', 'libs', 'qr', 'src'));
const { plainOptions } = require(
  join(__dirname, '..', 'dist', 'libs', 'qr', 'src', 'render', 'plain-options'),
);

const CASES = {
  wifi: ['wifi', { wifi_ssid: 'CAFE', wifi_encryption: 'WPA/WPA2', wifi_password: ' 1234567' }],
  tel: ['phone', { phone: '*#06#' }],
  sms: ['sms', { sms: '+49 30 1234567', sms_body: 'At 12:34?' }],
  epc: [
    'epc',
    {
      epc_payee_name: 'Ü'.repeat(35),
      epc_iban: 'DE89370400440532013000',
      epc_bic: 'COBADEFFXXX',
      epc_amount: '999999999.99',
      information: 'i'.repeat(70),
      epc_remittance_text: 't'.repeat(121),
    },
  ],
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'qr-zbar-'));
  let failed = false;
  for (const [name, [type, fields]] of Object.entries(CASES)) {
    const data = encodeContent(type, fields);
    const fixed = type === 'epc' ? { fixedSymbol: { maxVersion: 13 } } : {};
    const rendered = await renderQr({ ...plainOptions({ data }), ...fixed });
    const file = join(dir, `${name}.png`);
    writeFileSync(file, rendered.png);
    const read = execFileSync('zbarimg', ['-q', '--raw', '-Sbinary', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const expected = Buffer.from(data, 'utf8');
    // zbarimg may end its output with a line break of its own.
    const same = read.equals(expected) || read.equals(Buffer.concat([expected, Buffer.from('\n')]));
    failed ||= !same;
    console.log(`${name}: ${same ? 'read byte for byte' : 'DIFFERENT'} ${JSON.stringify(data)}`);
  }
  process.exit(failed ? 1 : 0);
}

void main();
