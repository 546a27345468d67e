'use strict';
// The realistic mix of bench:redirect: many links, real browsers' user agents (desktop, mobile,
// in-app), languages, referrers, UTM values, and client addresses from many countries arriving
// through a trusted proxy (X-Forwarded-For), so that device parsing, geo lookups, roll-up rows and
// unique-visitor hashes all vary the way they do under real traffic. Deterministic: the same
// sequence of requests for every server measured in a run.

const LINKS = 1000;
const alias = (i) => `mix-${String(i).padStart(4, '0')}`;

const USER_AGENTS = [
  // desktop
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  // mobile
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 12; Redmi Note 11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.102 Mobile Safari/537.36',
  'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 OPR/86.0.0.0',
  'Mozilla/5.0 (Linux; U; Android 13; en-US; V2207) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0.6312.80 UCBrowser/13.7.0.1320 Mobile Safari/537.36',
  // in-app browsers
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/22B83 Instagram 356.0.0.25.109 (iPhone15,3; iOS 18_1; en_US; en; scale=3.00; 1290x2796; 658309016)',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/485.0.0.36.107;FBBV/654405478;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/80]',
  'Mozilla/5.0 (Linux; Android 14; SM-G991B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/490.0.0.55.83;]',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.107 Mobile Safari/537.36 Instagram 354.0.0.44.102 Android',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_37.3.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US',
  'Mozilla/5.0 (Linux; Android 12; M2101K6G Build/SKQ1.210908.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/129.0.6668.100 Mobile Safari/537.36 trill_370203 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/trill app_version/37.2.3',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 LinkedInApp/9.30.1',
  'Mozilla/5.0 (Linux; Android 11; RMX2185) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 Line/14.19.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/13.17.0.39 (like Safari/8620.1.13, panda)',
  'Mozilla/5.0 (Linux; Android 14; 2201116SG Build/UKQ1.231003.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 WhatsApp/2.24.23.78',
  // bots and tools that follow short links
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'curl/8.5.0',
];

const LANGUAGES = [
  'en-US,en;q=0.9',
  'en-GB,en;q=0.9',
  'de-DE,de;q=0.9,en;q=0.8',
  'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7',
  'es-ES,es;q=0.9',
  'es-MX,es;q=0.9,en;q=0.8',
  'pt-BR,pt;q=0.9,en-US;q=0.8',
  'it-IT,it;q=0.9',
  'nl-NL,nl;q=0.9,en;q=0.8',
  'pl-PL,pl;q=0.9',
  'tr-TR,tr;q=0.9',
  'ru-RU,ru;q=0.9,en;q=0.8',
  'ja-JP,ja;q=0.9',
  'ko-KR,ko;q=0.9',
  'zh-CN,zh;q=0.9',
  'zh-TW,zh;q=0.9,en;q=0.8',
  'hi-IN,hi;q=0.9,en;q=0.8',
  'ar-SA,ar;q=0.9',
  'id-ID,id;q=0.9',
  'sv-SE,sv;q=0.9',
  null,
];

const REFERRERS = [
  null,
  null,
  'https://www.google.com/',
  'https://www.bing.com/',
  'https://duckduckgo.com/',
  'https://t.co/',
  'https://www.facebook.com/',
  'https://l.facebook.com/',
  'https://www.instagram.com/',
  'https://www.linkedin.com/feed/',
  'https://www.reddit.com/r/programming/comments/abc123/',
  'https://news.ycombinator.com/item?id=42000000',
  'https://mail.google.com/',
  'https://outlook.live.com/',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://web.whatsapp.com/',
  'https://example.org/blog/launch-post',
  'https://partner.example.net/newsletter/2026-11',
];

const UTM_SOURCES = [
  'newsletter',
  'twitter',
  'facebook',
  'instagram',
  'linkedin',
  'google',
  'partner',
  'qr',
  'sms',
  'podcast',
];
const UTM_MEDIUMS = ['email', 'social', 'cpc', 'referral', 'print', 'display'];
const UTM_CAMPAIGNS = Array.from({ length: 40 }, (_, i) => `campaign-${i + 1}`);

// First octets of public IPv4 space allocated across many regions (ARIN, RIPE, APNIC, LACNIC,
// AFRINIC), so the geo database answers with many countries and cities.
const FIRST_OCTETS = [
  3, 4, 8, 12, 23, 24, 31, 37, 41, 46, 47, 49, 58, 59, 60, 61, 62, 64, 66, 67, 68, 69, 70, 71, 72,
  73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96,
  97, 98, 99, 101, 102, 103, 105, 106, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120,
  121, 122, 123, 124, 125, 133, 138, 139, 140, 150, 151, 154, 155, 163, 175, 176, 177, 178, 179,
  180, 181, 182, 183, 185, 186, 187, 188, 189, 190, 191, 193, 194, 195, 196, 197, 200, 201, 202,
  203, 210, 211, 212, 213, 217, 218, 219, 220, 221, 222,
];

/** A small deterministic PRNG (mulberry32), so every server sees the same requests. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` request variants: path (one of the LINKS aliases, hot links more often than cold ones,
 * half of them with UTM parameters) and headers. Each variant is a distinct visitor address.
 */
function buildVariants(count = 8192, seed = 22) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const variants = [];
  for (let i = 0; i < count; i += 1) {
    // Skewed popularity: a few links get most clicks, every link gets some.
    const link = Math.min(LINKS - 1, Math.floor(LINKS * random() ** 2));
    let path = `/${alias(link)}`;
    if (random() < 0.5) {
      path +=
        `?utm_source=${pick(UTM_SOURCES)}&utm_medium=${pick(UTM_MEDIUMS)}` +
        `&utm_campaign=${pick(UTM_CAMPAIGNS)}`;
    }
    const ip = `${pick(FIRST_OCTETS)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`;
    const headers = { 'user-agent': pick(USER_AGENTS), 'x-forwarded-for': ip };
    const language = pick(LANGUAGES);
    if (language) headers['accept-language'] = language;
    const referrer = pick(REFERRERS);
    if (referrer) headers.referer = referrer;
    variants.push({ path, headers });
  }
  return variants;
}

/** autocannon `requests` that walk through the variants, the same order on every run. */
function mixRequests(variants) {
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req) => {
        const variant = variants[next];
        next = (next + 1) % variants.length;
        return { ...req, path: variant.path, headers: { ...req.headers, ...variant.headers } };
      },
    },
  ];
}

/** The 1,000 links of the mix, created in one bulk request. */
async function createMixLinks(base, key) {
  const body = Array.from({ length: LINKS }, (_, i) => ({
    location_url: `https://example.com/landing/${i}?ref=mix`,
    url: alias(i),
  }));
  const res = await fetch(`${base}/v1/links/bulk`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201)
    throw new Error(`creating the mix's links failed: ${res.status} ${await res.text()}`);
  const created = (await res.json()).data;
  if (created.length !== LINKS) throw new Error(`the bulk request created ${created.length} links`);
}

module.exports = {
  LINKS,
  USER_AGENTS,
  buildVariants,
  mixRequests,
  createMixLinks,
};
