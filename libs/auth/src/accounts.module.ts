import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { PaymentsRecorder } from './billing/payments.recorder';
import { PlanLimits } from './billing/plan-limits';
import { PlansService } from './billing/plans.service';
import { UsersService } from './users.service';

/**
 * Users, their API keys, plans and payments, without HTTP: the API and the command line both use
 * it. Global: every create of every context checks its plan's limits (PlanLimits).
 */
@Global()
@Module({
  providers: [UsersService, ApiKeysService, PlansService, PlanLimits, PaymentsRecorder],
  exports: [UsersService, ApiKeysService, PlansService, PlanLimits, PaymentsRecorder],
})
export class AccountsModule {}
