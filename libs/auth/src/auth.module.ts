import { Module } from '@nestjs/common';
import { UNCOUNTED_REQUESTS } from '@app/common';
import { AccountsModule } from './accounts.module';
import { ApiRateLimiter } from './api-rate-limiter';

/**
 * Accounts plus the rate limiter used by the global guards (ApiKeyGuard reads the bearer key
 * itself). Only the HTTP app imports this module; the command line imports AccountsModule. The
 * rate limiter counts through the (global) ThrottlerModule's storage.
 */
@Module({
  imports: [AccountsModule],
  providers: [
    ApiRateLimiter,
    // Requests that fail before the guards (unknown routes, unparsable bodies) are counted too.
    { provide: UNCOUNTED_REQUESTS, useExisting: ApiRateLimiter },
  ],
  exports: [AccountsModule, ApiRateLimiter, UNCOUNTED_REQUESTS],
})
export class AuthModule {}
