import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { UNCOUNTED_REQUESTS } from '@app/common';
import { AccountsModule } from './accounts.module';
import { ApiRateLimiter } from './api-rate-limiter';
import { BearerStrategy } from './bearer.strategy';

/**
 * Accounts plus the passport bearer strategy the global ApiKeyGuard calls. The strategy also
 * registers itself in passport's process-wide registry, so only the HTTP app imports this module
 * (the command line imports AccountsModule), and one process serves one API app. The rate limiter counts
 * through the (global) ThrottlerModule's storage.
 */
@Module({
  imports: [AccountsModule, PassportModule],
  providers: [
    BearerStrategy,
    ApiRateLimiter,
    // Requests that fail before the guards (unknown routes, unparsable bodies) are counted too.
    { provide: UNCOUNTED_REQUESTS, useExisting: ApiRateLimiter },
  ],
  exports: [AccountsModule, ApiRateLimiter, BearerStrategy, UNCOUNTED_REQUESTS],
})
export class AuthModule {}
