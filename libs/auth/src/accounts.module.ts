import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthCache } from './auth-cache';
import { PaymentsRecorder } from './billing/payments.recorder';
import { PlanLimits } from './billing/plan-limits';
import { PlansService } from './billing/plans.service';
import { KeyUsage } from './key-usage';
import { UsersService } from './users.service';

/**
 * Users, their API keys, plans and payments, without HTTP: the API and the command line both use
 * it. Global: every create of every context checks its plan's limits (PlanLimits). AuthCache is
 * exported so that whoever changes what an actor may do can drop what is cached about it.
 */
@Global()
@Module({
  providers: [
    UsersService,
    ApiKeysService,
    AuthCache,
    KeyUsage,
    PlansService,
    PlanLimits,
    PaymentsRecorder,
  ],
  exports: [UsersService, ApiKeysService, AuthCache, PlansService, PlanLimits, PaymentsRecorder],
})
export class AccountsModule {}
