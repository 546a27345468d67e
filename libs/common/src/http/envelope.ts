import { SetMetadata } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Paginated, toListEnvelope } from './paginated';
import { uploadsRemoval } from './upload-cleanup';

export const RAW_RESPONSE = 'linkdock:raw-response';

/** Opts a handler out of the `{data}` envelope (health checks, files). */
export const RawResponse = (): MethodDecorator & ClassDecorator => SetMetadata(RAW_RESPONSE, true);

const RAW = Symbol('linkdock.rawResponse');

/** Marks the response of a @RawResponse() handler: its result goes out as it is (RequestGuard). */
export function markRawResponse(res: object): void {
  (res as Record<symbol, unknown>)[RAW] = true;
}

/** Whether markRawResponse marked this response. */
export function isRawResponse(res: object): boolean {
  return (res as Record<symbol, unknown>)[RAW] === true;
}

/** A handler's result as the API answers it: `{data}`, or the list envelope for a Paginated. */
export function envelope(result: unknown, appUrl: string, originalUrl: string): unknown {
  return result instanceof Paginated
    ? toListEnvelope(result, appUrl, originalUrl)
    : { data: result };
}

/**
 * Express as Nest drives it, with the envelope put on every handler's result where Nest hands it
 * over (`reply`; errors leave through AllExceptionsFilter, which writes its own body), once the
 * request's upload files are removed (uploadsRemoval). A global interceptor did this before: Nest
 * runs every request of a route with interceptors through an async resource, deferred observables
 * and a merge, which cost about a quarter of a short request's CPU; a route without any runs its
 * handler directly.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  constructor(private readonly appUrl: string) {
    super();
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const answer = isRawResponse(response)
      ? body
      : envelope(body, this.appUrl, response.req.originalUrl);
    const removal = uploadsRemoval(response.req);
    return removal
      ? removal.then((): unknown => super.reply(response, answer, statusCode))
      : super.reply(response, answer, statusCode);
  }
}
