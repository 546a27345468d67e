/**
 * What a plan allows. Every limit is a whole number; -1 means unlimited. `api_rate_limit` is
 * requests per minute per API key, `static_storage_bytes` the total size of the account's static
 * sites, `statistics_retention_days` how far back the statistics of the account reach.
 */
export const PLAN_LIMITS = [
  'links_limit',
  'biolink_blocks_limit',
  'qr_codes_limit',
  'domains_limit',
  'projects_limit',
  'splash_pages_limit',
  'signatures_limit',
  'notification_handlers_limit',
  'team_members_limit',
  'static_storage_bytes',
  'api_rate_limit',
  'statistics_retention_days',
] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];
export type PlanSettings = Record<PlanLimit, number>;

/** The resources a create can be refused for, each with the limit that counts it. */
export const LIMITED_RESOURCES = {
  links: 'links_limit',
  biolink_blocks: 'biolink_blocks_limit',
  qr_codes: 'qr_codes_limit',
  domains: 'domains_limit',
  projects: 'projects_limit',
  splash_pages: 'splash_pages_limit',
  signatures: 'signatures_limit',
  notification_handlers: 'notification_handlers_limit',
  team_members: 'team_members_limit',
  static_storage_bytes: 'static_storage_bytes',
} as const satisfies Record<string, PlanLimit>;
export type LimitedResource = keyof typeof LIMITED_RESOURCES;

export const UNLIMITED = -1;

/** The settings of "no plan": everything unlimited (a single-user install is never limited by surprise). */
export const UNLIMITED_PLAN: Readonly<PlanSettings> = Object.freeze(
  Object.fromEntries(PLAN_LIMITS.map((name) => [name, UNLIMITED])) as PlanSettings,
);

/** The largest value a limit may take (bytes of storage need more than 2^31). */
const MAX_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Validates limits given by an operator: an object whose keys are among PLAN_LIMITS, each a whole
 * number ≥ -1 (`api_rate_limit` ≥ 1 or -1). Missing keys keep `base`'s values (unlimited for a new
 * plan). Returns the problems instead when there are any.
 */
export function mergePlanSettings(
  base: Readonly<PlanSettings>,
  input: unknown,
): { settings: PlanSettings } | { problems: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { problems: ['settings must be a JSON object of limits.'] };
  }
  const settings: PlanSettings = { ...base };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!(PLAN_LIMITS as readonly string[]).includes(key)) {
      problems.push(`settings.${key} is not a limit; the limits are ${PLAN_LIMITS.join(', ')}.`);
      continue;
    }
    const min = key === 'api_rate_limit' ? 1 : 0;
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value > MAX_LIMIT ||
      (value !== UNLIMITED && value < min)
    ) {
      problems.push(`settings.${key} must be a whole number of ${min} or more, or -1 (unlimited).`);
      continue;
    }
    settings[key as PlanLimit] = value;
  }
  return problems.length > 0 ? { problems } : { settings };
}

/** A plan's stored settings, every limit present (a limit added after the plan was made is unlimited). */
export function parsePlanSettings(json: string): PlanSettings {
  const merged = mergePlanSettings(UNLIMITED_PLAN, JSON.parse(json) as unknown);
  if ('problems' in merged) {
    throw new Error(`A stored plan has invalid settings: ${merged.problems.join(' ')}`);
  }
  return merged.settings;
}
