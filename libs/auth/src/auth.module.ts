import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountsModule } from './accounts.module';
import { BearerStrategy } from './bearer.strategy';

/**
 * Accounts plus the passport bearer strategy used by the global ApiKeyGuard. Passport keeps
 * strategies in a process-wide registry, so only the HTTP app imports this module (the command
 * line imports AccountsModule), and one process serves one API app.
 */
@Module({
  imports: [AccountsModule, PassportModule],
  providers: [BearerStrategy],
  exports: [AccountsModule],
})
export class AuthModule {}
