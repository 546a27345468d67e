import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/auth';
import { RawResponse } from '@app/common';
import { PREVIEW_PATH, SignaturesService } from './signatures.service';

/**
 * The public preview page: anyone with the unguessable link sees the rendered signature. It is
 * HTML under a strict policy: no scripts at all, styles only inline, images from http(s).
 */
const CSP = [
  "default-src 'none'",
  'img-src https: http: data:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

@ApiExcludeController()
@Public()
@RawResponse()
@Controller(PREVIEW_PATH)
export class SignaturePreviewController {
  constructor(private readonly signatures: SignaturesService) {}

  @Get(':token')
  async preview(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const page = await this.signatures.previewPage(token);
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    res.type('html');
    if (page === null) {
      res
        .status(404)
        .send('<!DOCTYPE html><title>Not found</title><p>This signature does not exist.</p>');
      return;
    }
    res.status(200).send(page);
  }
}
