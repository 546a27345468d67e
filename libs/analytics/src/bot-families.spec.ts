import { isbot } from 'isbot';
import { botFamily, HEAD_BOT, OTHER_BOT } from './bot-families';

describe(botFamily.name, () => {
  // Real user agents of the families the statistics name, each a bot for isbot.
  const cases: Array<[string, string]> = [
    ['curl/8.5.0', 'curl'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Slackbot'],
    ['Slack-ImgProxy (+https://api.slack.com/robots)', 'Slackbot'],
    ['Twitterbot/1.0', 'Twitterbot'],
    ['TelegramBot (like TwitterBot)', 'TelegramBot'],
    [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'facebookexternalhit',
    ],
    ['WhatsApp/2.23.20.0', 'WhatsApp'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    ['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'Discordbot'],
    [
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'LinkedInBot',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      'Applebot',
    ],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    ['python-requests/2.31.0', 'python-requests'],
    ['Wget/1.21.4', 'Wget'],
    ['Go-http-client/1.1', 'Go-http-client'],
    ['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', 'node-fetch'],
    ['axios/1.6.8', 'axios'],
    ['okhttp/4.12.0', 'okhttp'],
    ['PostmanRuntime/7.39.0', 'PostmanRuntime'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
      'HeadlessChrome',
    ],
  ];

  it.each(cases)('names %s %s', (ua, family) => {
    expect({ bot: isbot(ua), family: botFamily(ua) }).toEqual({ bot: true, family });
  });

  it('names a bot no token knows other', () => {
    const ua = 'Mozilla/5.0 (compatible; SomeCrawler/1.0)';
    expect({ bot: isbot(ua), family: botFamily(ua) }).toEqual({ bot: true, family: OTHER_BOT });
    expect([OTHER_BOT, HEAD_BOT]).toEqual(['other', 'HEAD']);
  });
});
