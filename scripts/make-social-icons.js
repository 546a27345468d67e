// Regenerates assets/social/*.png (committed) from the CC0 glyphs of the simple-icons package:
// a white glyph on a rounded square of the brand colour, 64x64 so that it stays sharp when shown at
// 12-48 CSS pixels. LinkedIn is not in simple-icons; its badge is drawn here as the letters "in".
// Usage: node scripts/make-social-icons.js   (needs Debian's chromium at /usr/bin/chromium)
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { chromium } = require('playwright-core');

const ICONS = require('../node_modules/simple-icons/data/simple-icons.json');
const list = Array.isArray(ICONS) ? ICONS : ICONS.icons;
const NETWORKS = {
  facebook: ['facebook', 'Facebook'],
  twitter: ['x', 'X'],
  instagram: ['instagram', 'Instagram'],
  youtube: ['youtube', 'YouTube'],
  tiktok: ['tiktok', 'TikTok'],
  spotify: ['spotify', 'Spotify'],
  pinterest: ['pinterest', 'Pinterest'],
  snapchat: ['snapchat', 'Snapchat'],
  twitch: ['twitch', 'Twitch'],
  discord: ['discord', 'Discord'],
  github: ['github', 'GitHub'],
  reddit: ['reddit', 'Reddit'],
};

function glyph(slug) {
  const svg = readFileSync(
    join(__dirname, '../node_modules/simple-icons/icons', `${slug}.svg`),
    'utf8',
  );
  return svg.match(/<path d="([^"]+)"/)[1];
}

function badge(color, inner, dark) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="14" fill="#${color}"/>
  <g transform="translate(14 14) scale(1.5)" fill="${dark ? '#000000' : '#ffffff'}">${inner}</g></svg>`;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 64, height: 64 } });
  const out = join(__dirname, '../assets/social');
  const all = Object.entries(NETWORKS).map(([name, [slug, title]]) => {
    const hex = list.find((i) => i.title === title).hex;
    return [name, badge(hex, `<path d="${glyph(slug)}"/>`, hex === 'FFFC00')];
  });
  all.push([
    'linkedin',
    badge(
      '0A66C2',
      '<text x="12" y="19" font-family="Arial, sans-serif" font-weight="bold" font-size="17" text-anchor="middle">in</text>',
      false,
    ),
  ]);
  for (const [name, svg] of all) {
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg}</body></html>`,
    );
    writeFileSync(
      join(out, `${name}.png`),
      await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: 64, height: 64 } }),
    );
  }
  await browser.close();
  console.log(`wrote ${all.length} icons to ${out}`);
})();
