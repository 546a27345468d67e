// Median time of one styled 500 px PNG, the two-decoder readability check included, against the
// plain `qrcode` package's PNG at the same size. Run through `npm run bench:qr` (builds first).
'use strict';
const { join } = require('node:path');
const QRCode = require('qrcode');
const sharp = require('sharp');
const { renderQr, clearRenderCaches } = require(join(__dirname, '..', 'dist', 'libs', 'qr', 'src'));

const DATA = 'https://linkdock.example/menu?table=12';
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = 20;

async function median(label, fn) {
  for (let i = 0; i < WARMUP; i++) {
    await fn();
  }
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(
    `${label.padEnd(58)} median ${at(0.5).toFixed(2)} ms   p10 ${at(0.1).toFixed(2)}   p90 ${at(0.9).toFixed(2)}   (${RUNS} runs)`,
  );
  return at(0.5);
}

async function main() {
  const logo = await sharp({
    create: { width: 256, height: 256, channels: 4, background: '#e63946' },
  })
    .png()
    .toBuffer();
  const options = {
    data: DATA,
    ecc: 'M',
    size: 500,
    margin: 2,
    style: 'rounded',
    innerEyeStyle: 'rounded',
    outerEyeStyle: 'rounded',
    foreground: { type: 'gradient', style: 'diagonal', one: '#000000', two: '#1d3557' },
    eyes: null,
    background: { color: '#ffffff', transparency: 0 },
    logo: { image: logo, size: 25 },
    backgroundImage: null,
    foregroundImage: null,
    frame: {
      name: 'round_bottom_text',
      text: 'Scan me',
      textSize: 0,
      font: 'sora',
      color: '#000000',
      textColor: '#ffffff',
    },
  };
  const check = await renderQr(options);
  if (!check.isReadable) {
    throw new Error('The benchmark code does not read back: fix the engine before timing it.');
  }
  console.log(
    `node ${process.version}, ${require('node:os').cpus().length} CPUs, load ${require('node:os').loadavg()[0].toFixed(2)}`,
  );
  await median('qrcode toBuffer PNG, 500 px (baseline)', () =>
    QRCode.toBuffer(DATA, { type: 'png', width: 500, errorCorrectionLevel: 'M' }),
  );
  await median('linkdock PNG+SVG 500 px, rounded, gradient, logo, frame, 2 decoders', () =>
    renderQr(options),
  );
  // The logo and frame-text caches (content-independent parts) emptied before every run.
  await median('  the same, cold: logo and frame-text caches cleared per run', () => {
    clearRenderCaches();
    return renderQr(options);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
