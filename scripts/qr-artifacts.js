// Renders one PNG per style family into test/artifacts/qr/ (for people to look at; run after a
// build: `npm run build && node scripts/qr-artifacts.js`). Prints each file and its readability.
'use strict';
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const sharp = require('sharp');
const { renderQr, encodeContent } = require(join(__dirname, '..', 'dist', 'libs', 'qr', 'src'));
const { plainOptions } = require(
  join(__dirname, '..', 'dist', 'libs', 'qr', 'src', 'render', 'plain-options'),
);

const out = join(__dirname, '..', 'test', 'artifacts', 'qr');
const base = plainOptions({ data: 'https://linkdock.example/menu?table=12', size: 300 });
const gradient = (style) => ({ type: 'gradient', style, one: '#000000', two: '#1d3557' });
const frame = (name, font, text = 'Scan me') => ({
  name,
  text,
  textSize: 0,
  font,
  color: '#1d3557',
  textColor: name.includes('simple') ? '#1d3557' : '#ffffff',
});

async function main() {
  mkdirSync(out, { recursive: true });
  const logo = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#e63946"/><path d="M20 34l8 8 16-18" stroke="#fff" stroke-width="6" fill="none"/></svg>',
    ),
  )
    .png()
    .toBuffer();
  const wifi = encodeContent('wifi', {
    wifi_ssid: 'Cafe Guest',
    wifi_encryption: 'WPA/WPA2',
    wifi_password: 'espresso;2',
  });
  const cases = {
    'square-plain': {},
    'dot-circle-eyes-radial': {
      style: 'dot',
      innerEyeStyle: 'dot',
      outerEyeStyle: 'circle',
      foreground: gradient('radial'),
    },
    'rounded-logo-round-frame': {
      style: 'rounded',
      innerEyeStyle: 'rounded',
      outerEyeStyle: 'rounded',
      foreground: gradient('diagonal'),
      logo: { image: logo, size: 25 },
      frame: frame('round_bottom_text', 'sora'),
    },
    'diamond-custom-eyes': {
      style: 'diamond',
      innerEyeStyle: 'diamond',
      outerEyeStyle: 'square',
      eyes: { inner: '#e63946', outer: '#1d3557' },
    },
    'flower-top-frame': {
      style: 'flower',
      innerEyeStyle: 'flower',
      outerEyeStyle: 'flower',
      foreground: gradient('vertical'),
      frame: frame('straight_top_text', 'times_new_roman'),
    },
    'leaf-simple-frame-wifi': {
      data: wifi,
      style: 'leaf',
      innerEyeStyle: 'leaf',
      outerEyeStyle: 'leaf',
      foreground: gradient('horizontal'),
      frame: frame('straight_simple_bottom_text', 'courier'),
    },
    // Frame text in scripts that need shaping (HarfBuzz after the bidi algorithm).
    'text-hebrew-arial': { size: 500, frame: frame('round_bottom_text', 'arial', 'סרוק אותי') },
    'text-arabic-arial': { size: 500, frame: frame('round_bottom_text', 'arial', 'امسح الرمز') },
    'text-arabic-verdana': {
      size: 500,
      frame: frame('straight_bottom_text', 'verdana', 'امسح الرمز'),
    },
    'text-devanagari-sora': {
      size: 500,
      frame: frame('round_bottom_text', 'sora', 'स्कैन करें हिन्दी'),
    },
    // Ŝ̈ in Cousine: the letter and its marks from Noto Sans, which places them; "Scan" in Cousine.
    'text-marks-courier': {
      size: 500,
      frame: frame('straight_bottom_text', 'courier', 'Ŝ̈can Ŝ̈'),
    },
    'text-thai-tahoma': { size: 500, frame: frame('straight_bottom_text', 'tahoma', 'สแกนเลย') },
    'text-mixed-arial': {
      size: 500,
      outerEyeStyle: 'circle',
      frame: frame('straight_simple_bottom_text', 'arial', 'Scan Ŝ̈ סרוק 123!'),
    },
  };
  for (const [name, overrides] of Object.entries(cases)) {
    const r = await renderQr({ ...base, ...overrides });
    writeFileSync(join(out, `${name}.png`), r.png);
    console.log(
      `${name}.png ${r.width}x${r.height} readable=${r.isReadable} ${r.png.length} bytes`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
