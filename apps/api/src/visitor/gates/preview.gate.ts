import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { PREVIEW_UPLOADS_PATH } from '@app/database';
import type { VisitorLink } from '../cache/visitor-link';
import { page } from '../http';
import { previewPage } from '../pages/preview-page';
import type { Visit } from '../visit';
import { VisitCounter } from '../visit-counter';
import type { Gate } from './gate';

/**
 * The link-preview fetchers of chat apps and social sites, by a token of their user agent
 * (case-insensitive). Kept here, as one list, and documented in docs/links.md: Slack
 * (`Slackbot-LinkExpanding`, `Slack-ImgProxy`), X/Twitter (`Twitterbot`), Facebook and Instagram
 * (`facebookexternalhit`, `Facebot`), WhatsApp, Discord (`Discordbot`), LinkedIn (`LinkedInBot`),
 * Telegram (`TelegramBot`), Apple Messages (`Applebot`, and the `facebookexternalhit` token
 * iMessage sends), Skype and Teams (`SkypeUriPreview`), Pinterest, Mastodon, Viber, Embedly,
 * redditbot, Google's chat and snippet fetcher (`Google-PageRenderer`), Iframely.
 */
export const PREVIEW_FETCHERS: readonly string[] = [
  'slackbot-linkexpanding',
  'slack-imgproxy',
  'slackbot',
  'twitterbot',
  'facebookexternalhit',
  'facebot',
  'whatsapp',
  'discordbot',
  'linkedinbot',
  'telegrambot',
  'applebot',
  'skypeuripreview',
  'pinterestbot',
  'pinterest/',
  'mastodon/',
  'viber',
  'embedly',
  'redditbot',
  'google-pagerenderer',
  'iframely',
];

/** Whether the user agent is one of the link-preview fetchers above. */
export function isPreviewFetcher(userAgent: string | undefined): boolean {
  if (!userAgent) {
    return false;
  }
  const agent = userAgent.toLowerCase();
  return PREVIEW_FETCHERS.some((token) => agent.includes(token));
}

/**
 * Link previews: a fetcher asking for a link that has a preview gets a small page of Open Graph
 * tags (200) instead of the redirect; everybody else passes. It sits before the password and
 * sensitive-content gates: for a protected link the page carries only the preview fields and no
 * way to the destination. The fetch is counted as a bot's visit (`bot_clicks`, `type=bots`), never
 * as a pageview (visit-counter.ts); the URLs in it are
 * built from APP_URL (or STORAGE_PUBLIC_URL for the image) and the link's stored domain, never
 * from the request's Host or X-Forwarded-* headers.
 */
@Injectable()
export class PreviewGate implements Gate {
  private readonly appUrl: string;
  private readonly imagesBase: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly counter: VisitCounter,
  ) {
    this.appUrl = config.appUrl;
    this.imagesBase = `${config.storage.publicUrl ?? config.appUrl}/${PREVIEW_UPLOADS_PATH}`;
  }

  check(visit: Visit, link: VisitorLink): boolean {
    const preview = link.preview;
    if (
      preview === null ||
      link.site !== null ||
      !isPreviewFetcher(visit.req.headers['user-agent'])
    ) {
      return false;
    }
    const root = visit.domain === null ? this.appUrl : `${visit.domain.scheme}${visit.domain.host}`;
    const protectedLink = link.passwordHash !== null || link.sensitive;
    const html = previewPage({
      title: preview.title,
      description: preview.description,
      image: preview.image === null ? null : `${this.imagesBase}/${preview.image}`,
      url: `${root}/${link.alias}`,
      // A protected link never shows its destination; a targeted one has no single destination.
      refresh: protectedLink || link.targetingType !== null ? null : link.location,
    });
    this.counter.count(visit, link);
    page(visit.res, 200, html, visit.head, { 'Cache-Control': 'public, max-age=300' });
    return true;
  }
}
