import { DataSource } from 'typeorm';
import { DomainEntity, LinkEntity, UserEntity, VisitEntity } from '@app/database';

/*
 * Rows for the medium tests, written straight through the entities: no service, no HTTP. Each
 * takes what a test cares about and fills the rest as the API would.
 */

let users = 0;

export async function insertUser(ds: DataSource, values: Partial<UserEntity> = {}) {
  users += 1;
  const repo = ds.getRepository(UserEntity);
  return repo.save(
    repo.create({
      email: `medium${users}-${process.pid}@example.com`,
      name: `Medium ${users}`,
      datetime: new Date(),
      last_datetime: null,
      ...values,
    }),
  );
}

export async function insertDomain(ds: DataSource, userId: number, values: Partial<DomainEntity>) {
  const repo = ds.getRepository(DomainEntity);
  return repo.save(
    repo.create({
      user_id: userId,
      scheme: 'https://',
      host: 'go.example.com',
      custom_index_url: '',
      custom_not_found_url: '',
      is_enabled: false,
      verification_token: 'x'.repeat(32),
      verified_datetime: null,
      datetime: new Date(),
      last_datetime: null,
      ...values,
    }),
  );
}

/** A link's values as the API would write them, for an insert of the test's own. */
export function linkRow(userId: number, values: Partial<LinkEntity> = {}): Partial<LinkEntity> {
  return {
    user_id: userId,
    project_id: null,
    domain_id: 0,
    type: 'link',
    url: 'link',
    location_url: 'https://example.org/',
    settings: '{}',
    password_hash: null,
    clicks: 0,
    is_enabled: true,
    start_date: null,
    end_date: null,
    datetime: new Date(),
    last_datetime: null,
    ...values,
  };
}

export async function insertLink(ds: DataSource, userId: number, values: Partial<LinkEntity>) {
  const repo = ds.getRepository(LinkEntity);
  return repo.save(repo.create(linkRow(userId, values)));
}

/** `count` raw visits of a link, an hour apart from 1 October 2026. */
export async function insertVisits(ds: DataSource, linkId: number, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    link_id: linkId,
    datetime: new Date(Date.UTC(2026, 9, 1, i)),
    is_unique: true,
    visitor_hash: `v${i}`.padEnd(32, '0'),
  }));
  await ds.getRepository(VisitEntity).insert(rows);
}
