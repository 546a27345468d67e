import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { Actor } from './actor';
import { ApiKeysService } from './api-keys.service';
import { bearerToken } from './bearer';

/**
 * passport-http-bearer also reads `access_token` from the query and body. Keys in URLs end up in
 * logs and browser history, so a token is accepted only when it came in the Authorization header.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly apiKeys: ApiKeysService) {
    super({ passReqToCallback: true });
  }

  async validate(req: Request, token: string): Promise<Actor | false> {
    if (bearerToken(req.headers.authorization) !== token) {
      return false;
    }
    return (await this.apiKeys.authenticate(token)) ?? false;
  }
}
