import { Global, Module } from '@nestjs/common';
import { PaymentsRecorder } from './payments.recorder';
import { PlanLimits } from './plan-limits';
import { PlansService } from './plans.service';

/**
 * Plans, their limits and payments, without HTTP (the webhooks and `/v1/plans` are the API's):
 * the API and the command line both use it. Global: every create of every context checks its
 * plan's limits (PlanLimits), and the key guard reads the plan's request quota (PlansService).
 */
@Global()
@Module({
  providers: [PlansService, PlanLimits, PaymentsRecorder],
  exports: [PlansService, PlanLimits, PaymentsRecorder],
})
export class BillingModule {}
