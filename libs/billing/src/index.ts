export * from './billing.module';
export * from './money';
export * from './payment-payload';
export * from './payment-values';
export * from './payments.recorder';
export * from './plan-limits';
export * from './plans.service';
export * from './refund-rule';
