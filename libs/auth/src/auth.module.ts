import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountsModule } from './accounts.module';
import { ApiRateLimiter } from './api-rate-limiter';
import { BearerStrategy } from './bearer.strategy';

/**
 * Accounts plus the passport bearer strategy used by the global ApiKeyGuard. Passport keeps
 * strategies in a process-wide registry, so only the HTTP app imports this module (the command
 * line imports AccountsModule), and one process serves one API app. The rate limiter counts
 * through the (global) ThrottlerModule's storage.
 */
@Module({
  imports: [AccountsModule, PassportModule],
  providers: [BearerStrategy, ApiRateLimiter],
  exports: [AccountsModule, ApiRateLimiter],
})
export class AuthModule {}
