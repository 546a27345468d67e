import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { Actor } from './actor';
import { ApiKeysService } from './api-keys.service';

/**
 * API keys travel only in the Authorization header. passport-http-bearer also reads
 * `access_token` from the query and the body (keys in URLs end up in logs and browser history),
 * and fails a request whose token appears twice; so the strategy is handed the header alone, and
 * an unrelated `access_token` field is ignored like any other unknown field.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly apiKeys: ApiKeysService) {
    super();
  }

  override authenticate(req: Request, options?: object): void {
    const headerOnly = { headers: { authorization: req.headers.authorization } } as Request;
    super.authenticate(headerOnly, options);
  }

  async validate(token: string): Promise<Actor | false> {
    return (await this.apiKeys.authenticate(token)) ?? false;
  }
}
