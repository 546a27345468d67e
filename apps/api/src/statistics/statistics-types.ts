import { DIMENSIONS, type Dimension } from '@app/analytics';

export const STATISTICS_TYPES = ['overview', ...DIMENSIONS, 'hour'] as const;
export type StatisticsType = (typeof STATISTICS_TYPES)[number];

export const GRANULARITIES = ['hour', 'day', 'month', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The parameters a breakdown needs (required) or takes (optional) besides the type. */
export const COMPANIONS: Partial<
  Record<Dimension, { required: readonly CompanionParameter[]; optional?: CompanionParameter[] }>
> = {
  referrer_path: { required: ['referrer_host'] },
  city_name: { required: [], optional: ['country_code'] },
  utm_medium: { required: ['utm_source'] },
  utm_campaign: { required: ['utm_source', 'utm_medium'] },
};

export type CompanionParameter = 'referrer_host' | 'country_code' | 'utm_source' | 'utm_medium';
