/**
 * The family of a bot's user agent, as `type=bots` statistics name it. isbot tells a bot from a
 * browser; its patterns are generic (`bots?`, `^[\w .-]+/v?\d`, ...), so the family is read from
 * the user agent by the tokens below, in order (the first that occurs wins: TelegramBot's user
 * agent says "like TwitterBot", LinkedInBot's names Apache-HttpClient). Tokens are lower case and
 * compared with the lower-cased user agent. A bot no token names is `other`.
 */
const FAMILIES: ReadonlyArray<readonly [token: string, family: string]> = [
  // Link-preview fetchers of chat apps and social sites.
  ['slackbot', 'Slackbot'],
  ['slack-imgproxy', 'Slackbot'],
  ['telegrambot', 'TelegramBot'],
  ['twitterbot', 'Twitterbot'],
  ['facebookexternalhit', 'facebookexternalhit'],
  ['facebookcatalog', 'facebookexternalhit'],
  ['meta-externalagent', 'facebookexternalhit'],
  ['whatsapp', 'WhatsApp'],
  ['discordbot', 'Discordbot'],
  ['linkedinbot', 'LinkedInBot'],
  ['skypeuripreview', 'SkypeUriPreview'],
  ['pinterest', 'Pinterestbot'],
  ['redditbot', 'redditbot'],
  ['mastodon', 'Mastodon'],
  ['bluesky', 'Bluesky'],
  ['snapchat', 'Snapchat'],
  ['viber', 'Viber'],
  ['embedly', 'Embedly'],
  ['iframely', 'Iframely'],
  ['vkshare', 'vkShare'],
  // Search engines and crawlers.
  ['googlebot', 'Googlebot'],
  ['google-inspectiontool', 'Googlebot'],
  ['adsbot-google', 'Googlebot'],
  ['googleother', 'Googlebot'],
  ['bingbot', 'bingbot'],
  ['bingpreview', 'bingbot'],
  ['applebot', 'Applebot'],
  ['duckduckbot', 'DuckDuckBot'],
  ['yandex', 'YandexBot'],
  ['baiduspider', 'Baiduspider'],
  ['petalbot', 'PetalBot'],
  ['gptbot', 'GPTBot'],
  ['chatgpt-user', 'ChatGPT-User'],
  ['oai-searchbot', 'OAI-SearchBot'],
  ['claudebot', 'ClaudeBot'],
  ['claude-user', 'ClaudeBot'],
  ['perplexitybot', 'PerplexityBot'],
  ['ccbot', 'CCBot'],
  ['ahrefsbot', 'AhrefsBot'],
  ['semrushbot', 'SemrushBot'],
  ['mj12bot', 'MJ12bot'],
  ['uptimerobot', 'UptimeRobot'],
  ['headlesschrome', 'HeadlessChrome'],
  // Command-line tools and HTTP libraries.
  ['curl', 'curl'],
  ['wget', 'Wget'],
  ['httpie', 'HTTPie'],
  ['python-requests', 'python-requests'],
  ['python-urllib', 'Python-urllib'],
  ['python-httpx', 'python-httpx'],
  ['aiohttp', 'aiohttp'],
  ['go-http-client', 'Go-http-client'],
  ['node-fetch', 'node-fetch'],
  ['axios', 'axios'],
  ['undici', 'undici'],
  ['okhttp', 'okhttp'],
  ['apache-httpclient', 'Apache-HttpClient'],
  ['java/', 'Java'],
  ['postmanruntime', 'PostmanRuntime'],
  ['insomnia', 'Insomnia'],
  ['libwww-perl', 'libwww-perl'],
  ['guzzlehttp', 'GuzzleHttp'],
];

/** A bot's family when no token names it. */
export const OTHER_BOT = 'other';
/** The family of a HEAD request whose user agent is no bot's (a link checker posing as a browser). */
export const HEAD_BOT = 'HEAD';

/** The family of a user agent that isbot says is a bot's; `other` when none of ours names it. */
export function botFamily(userAgent: string): string {
  const ua = userAgent.toLowerCase();
  for (const [token, family] of FAMILIES) {
    if (ua.includes(token)) {
      return family;
    }
  }
  return OTHER_BOT;
}
