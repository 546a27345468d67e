// express is @nestjs/platform-express's own dependency (installed with it); Nest offers no
// per-route body parser, so this route's parsers are express's own.
import { json, type RequestHandler, urlencoded } from 'express';
import { JSON_BODY_LIMITS, JsonBodyLimits, jsonBodyLimitsWith } from '@app/common';

/** The route whose bodies may be larger than the global bounds allow. */
export const BULK_PATH = '/v1/links/bulk';

/**
 * A thousand links with long destinations do not fit the global 1 MB and 50,000 values (a full
 * link is some 40 fields; targeting rules add two values each). Bound this route at 5 MB and
 * 200 values a link on average; the per-object key bound stays, so the work stays linear.
 */
export const BULK_BODY_BYTES = 5 * 1024 * 1024;
export const BULK_JSON_LIMITS: Readonly<JsonBodyLimits> = {
  ...JSON_BODY_LIMITS,
  maxValues: 200_000,
};

/**
 * Parsers mounted on BULK_PATH before the global ones (configure-app.ts), which then find the
 * body read and leave it alone. Multipart bodies are parsed later for every route, as usual.
 */
export function bulkBodyParsers(): RequestHandler[] {
  return [
    json({ limit: BULK_BODY_BYTES }),
    urlencoded({ limit: BULK_BODY_BYTES, extended: true, parameterLimit: 1000 }),
    jsonBodyLimitsWith(BULK_JSON_LIMITS),
  ];
}
