import { DomainEntity, DomainsRepository } from '@app/database';
import type { TestApp } from './test-app';

/**
 * A custom domain row, enabled and verified unless `overrides` say otherwise, written straight
 * through the repository (no DNS verification): for tests of what uses domains.
 */
export function insertDomain(
  t: TestApp,
  userId: number,
  host: string,
  overrides: Partial<Omit<DomainEntity, 'id' | 'user_id' | 'host'>> = {},
): Promise<number> {
  return t.app.get(DomainsRepository).insert({
    user_id: userId,
    scheme: 'https://',
    host,
    custom_index_url: '',
    custom_not_found_url: '',
    is_enabled: true,
    verification_token: 'token',
    verified_datetime: new Date(),
    datetime: new Date(),
    last_datetime: null,
    ...overrides,
  });
}
