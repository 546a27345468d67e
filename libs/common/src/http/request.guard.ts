import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { markRawResponse, RAW_RESPONSE } from './envelope';
import { HandlerMemo } from './handler-memo';
import { MultipartParser } from './multipart';
import { rejectNul } from './reject-nul';
import { UPLOADS_KEY, type UploadsSpec } from './uploads.decorator';

interface RouteBody {
  raw: boolean;
  uploads: UploadsSpec | undefined;
}

/**
 * The last global guard, once the request may be served: reads a multipart body (MultipartParser),
 * refuses a NUL character anywhere in the query or the body, and marks
 * a @RawResponse() handler's response so that EnvelopeExpressAdapter leaves its result as it is.
 * A global interceptor did this before; see EnvelopeExpressAdapter for why a guard does it now.
 */
@Injectable()
export class RequestGuard implements CanActivate {
  private readonly routes: HandlerMemo<RouteBody>;

  constructor(
    reflector: Reflector,
    private readonly multipart: MultipartParser,
  ) {
    this.routes = new HandlerMemo((targets) => ({
      raw: reflector.getAllAndOverride<boolean | undefined>(RAW_RESPONSE, targets) === true,
      uploads: reflector.get<UploadsSpec | undefined>(UPLOADS_KEY, targets[0]),
    }));
  }

  /** Without a multipart body (nearly every request) the answer is known at once: no promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') {
      return true;
    }
    const route = this.routes.of(context);
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (route.raw) {
      markRawResponse(http.getResponse<Response>());
    }
    if (req.headers['content-type'] === undefined || !req.is('multipart/form-data')) {
      rejectNul(req);
      return true;
    }
    return this.readMultipart(req, http.getResponse<Response>(), route.uploads);
  }

  private async readMultipart(
    req: Request,
    res: Response,
    uploads: UploadsSpec | undefined,
  ): Promise<boolean> {
    await this.multipart.parse(req, res, uploads);
    rejectNul(req);
    return true;
  }
}
