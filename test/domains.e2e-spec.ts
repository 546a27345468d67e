import { EventEmitter2 } from '@nestjs/event-emitter';
import { DOMAIN_CHANGED } from '@app/common';
import { Db, deleteLinkVisitsInChunks, DomainEntity, LinkEntity, VisitEntity } from '@app/database';
import {
  closeAfterAll,
  createTestApp,
  expectDocumented,
  startTestDnsServer,
  TestApp,
  TestDnsServer,
  TestUser,
} from '@app/testing';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const TOKEN_VALUE = /^linkdock-verify=[0-9a-f]{32}$/;

interface DomainBody {
  id: number;
  host: string;
  custom_index_url: string;
  is_enabled: boolean;
  verification: { type: string; name: string; value: string; verified_datetime: string | null };
}

describe('Domains', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  const opened = closeAfterAll();

  beforeAll(async () => {
    dns = opened.add(await startTestDnsServer());
    t = opened.add(await createTestApp({ env: { DNS_SERVERS: dns.address } }));
    owner = await t.createUser();
    stranger = await t.createUser();
  });

  async function createDomain(fields: Record<string, string>, user = owner): Promise<number> {
    const res = await t.http.post('/v1/domains').set('Authorization', user.auth).field(fields);
    expect(res.body).toEqual({ data: { id: expect.any(Number) } });
    expect(res.status).toBe(201);
    return (res.body as { data: { id: number } }).data.id;
  }

  async function getDomain(id: number, user = owner): Promise<DomainBody> {
    const res = await t.http.get(`/v1/domains/${id}`).set('Authorization', user.auth);
    expect(res.status).toBe(200);
    expectDocumented(res); // checked against docs/openapi.json too
    return (res.body as { data: DomainBody }).data;
  }

  /** Publishes the domain's verification record on the test DNS server and verifies it. */
  async function publishAndVerify(id: number, user = owner) {
    const { verification } = await getDomain(id, user);
    dns.records.set(verification.name, [verification.value]);
    return t.http.post(`/v1/domains/${id}/verify`).set('Authorization', user.auth);
  }

  const tlsCheck = (domain: string) => t.http.get('/v1/domains/tls-check').query({ domain });

  it('creates a disabled domain from multipart and reads back the whole object', async () => {
    const id = await createDomain({ host: 'go.example.com' });

    const got = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        id,
        scheme: 'https://',
        host: 'go.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: false,
        verification: {
          type: 'TXT',
          name: '_linkdock.go.example.com',
          value: expect.stringMatching(TOKEN_VALUE),
          verified_datetime: null,
        },
        last_datetime: null,
        datetime: expect.stringMatching(DATETIME),
      },
    });
  });

  it('normalises a pasted URL and an IDN, and takes every optional field', async () => {
    const res = await t.http.post('/v1/domains').set('Authorization', owner.auth).send({
      host: '  HTTPS://Bücher.Example./shop?x=1 ',
      scheme: 'HTTP',
      custom_index_url: ' https://example.org/welcome ',
      custom_not_found_url: 'http://example.org/missing?from=short',
      is_enabled: 1,
      user_id: stranger.id,
    });
    expect(res.status).toBe(201);

    const got = await getDomain(res.body.data.id);
    expect(got).toEqual({
      id: res.body.data.id,
      scheme: 'http://',
      host: 'xn--bcher-kva.example',
      custom_index_url: 'https://example.org/welcome',
      custom_not_found_url: 'http://example.org/missing?from=short',
      is_enabled: false,
      verification: {
        type: 'TXT',
        name: '_linkdock.xn--bcher-kva.example',
        value: expect.stringMatching(TOKEN_VALUE),
        verified_datetime: null,
      },
      last_datetime: null,
      datetime: expect.stringMatching(DATETIME),
    });
  });

  const labels =
    'host must be a domain name whose labels are 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen.';
  const url = (field: string) => `${field} must be empty or an absolute http:// or https:// URL.`;
  it.each<[string, Record<string, unknown>, string, string]>([
    ['a missing host', {}, 'host', 'host is required.'],
    ['a blank host', { host: '  ' }, 'host', 'host is required.'],
    ['a host that is not text', { host: 42 }, 'host', 'host must be a string.'],
    [
      'an IPv4 address',
      { host: '203.0.113.7' },
      'host',
      'host must be a domain name, not an IP address.',
    ],
    [
      'an IPv6 address',
      { host: '[2001:db8::1]' },
      'host',
      'host must be a domain name, not an IP address.',
    ],
    [
      'a port',
      { host: 'https://go.example.com:8443/' },
      'host',
      'host must be a domain name without a port.',
    ],
    [
      'a single label',
      { host: 'intranet' },
      'host',
      'host must have at least two labels, such as links.example.com.',
    ],
    [
      'localhost',
      { host: 'localhost' },
      'host',
      'host must have at least two labels, such as links.example.com.',
    ],
    ['a .localhost name', { host: 'app.localhost' }, 'host', 'host must not be localhost.'],
    ['a label over 63 characters', { host: `${'a'.repeat(64)}.example.com` }, 'host', labels],
    ['an underscore', { host: 'my_site.example.com' }, 'host', labels],
    [
      'a host over 253 characters',
      { host: `${'abcdefghi.'.repeat(26)}com` },
      'host',
      'host must be at most 253 characters long.',
    ],
    [
      "the service's own host",
      { host: 'https://Links.Test/' },
      'host',
      'host links.test is the address of this Linkdock server itself; add a domain of your own.',
    ],
    [
      'an ftp scheme',
      { host: 'a.example.com', scheme: 'ftp://' },
      'scheme',
      'scheme must be https:// or http://.',
    ],
    [
      'a javascript: index URL',
      { host: 'a.example.com', custom_index_url: 'javascript:alert(1)' },
      'custom_index_url',
      url('custom_index_url'),
    ],
    [
      'a data: index URL',
      { host: 'a.example.com', custom_index_url: 'data:text/html,<b>x</b>' },
      'custom_index_url',
      url('custom_index_url'),
    ],
    [
      'a file: 404 URL',
      { host: 'a.example.com', custom_not_found_url: 'file:///etc/passwd' },
      'custom_not_found_url',
      url('custom_not_found_url'),
    ],
    [
      'a relative 404 URL',
      { host: 'a.example.com', custom_not_found_url: '/missing' },
      'custom_not_found_url',
      url('custom_not_found_url'),
    ],
    [
      'an index URL over 2048 characters',
      { host: 'a.example.com', custom_index_url: `https://example.org/${'x'.repeat(2030)}` },
      'custom_index_url',
      'custom_index_url must be shorter than or equal to 2048 characters.',
    ],
  ])('refuses %s with 400 naming the field', async (_case, body, field, title) => {
    const res = await t.http.post('/v1/domains').set('Authorization', owner.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, title, field, code: 'validation_failed' }],
    });
  });

  it('reports every bad field of one request as its own entry', async () => {
    const res = await t.http
      .post('/v1/domains')
      .set('Authorization', owner.auth)
      .send({ host: '10.0.0.1', scheme: 'gopher', custom_index_url: 'javascript:x' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'custom_index_url',
      'host',
      'scheme',
    ]);
  });

  it('refuses index and not-found URLs on the domain itself, which would loop', async () => {
    const res = await t.http.post('/v1/domains').set('Authorization', owner.auth).send({
      host: 'loop.example.com',
      custom_index_url: 'https://LOOP.example.com/',
      custom_not_found_url: 'https://loop.example.com/missing',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title:
            'custom_index_url must not point at the domain itself (loop.example.com): visitors would loop.',
          field: 'custom_index_url',
          code: 'validation_failed',
        },
        {
          status: 400,
          title:
            'custom_not_found_url must not point at the domain itself (loop.example.com): visitors would loop.',
          field: 'custom_not_found_url',
          code: 'validation_failed',
        },
      ],
    });
    const id = await createDomain({ host: 'noloop.example.com' });
    const update = await t.http
      .post(`/v1/domains/${id}`)
      .set('Authorization', owner.auth)
      .send({ custom_not_found_url: 'https://noloop.example.com/x' });
    expect(update.status).toBe(400);
    expect(update.body.errors[0].field).toBe('custom_not_found_url');
  });

  it('refuses a host the caller already has with 400, however it is written', async () => {
    await createDomain({ host: 'dup.example.com' });
    const res = await t.http
      .post('/v1/domains')
      .set('Authorization', owner.auth)
      .field('host', 'https://DUP.example.com/');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'You already have the domain dup.example.com.',
          field: 'host',
          code: 'already_exists',
        },
      ],
    });
  });

  it('updates partially: absent fields keep their value and last_datetime is set', async () => {
    const id = await createDomain({ host: 'edit.example.com', custom_index_url: 'https://a.org/' });
    const before = await getDomain(id);
    const res = await t.http
      .post(`/v1/domains/${id}`)
      .set('Authorization', owner.auth)
      .field({ scheme: 'http://', custom_not_found_url: 'https://a.org/404' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });

    expect(await getDomain(id)).toEqual({
      ...before,
      scheme: 'http://',
      custom_not_found_url: 'https://a.org/404',
      last_datetime: expect.stringMatching(DATETIME),
    });

    const cleared = await t.http
      .post(`/v1/domains/${id}`)
      .set('Authorization', owner.auth)
      .send({ custom_index_url: '' });
    expect(cleared.status).toBe(200);
    expect((await getDomain(id)).custom_index_url).toBe('');
  });

  it.each<[string, Record<string, unknown>, string, string, string]>([
    [
      'a bad scheme',
      { scheme: 'ws' },
      'scheme',
      'scheme must be https:// or http://.',
      'validation_failed',
    ],
    ['a blank host', { host: ' ' }, 'host', 'host is required.', 'validation_failed'],
    [
      'an IP host',
      { host: '127.0.0.1' },
      'host',
      'host must be a domain name, not an IP address.',
      'validation_failed',
    ],
    [
      'a javascript: URL',
      { custom_not_found_url: 'javascript:alert(1)' },
      'custom_not_found_url',
      url('custom_not_found_url'),
      'validation_failed',
    ],
    [
      'is_enabled that is not 0 or 1',
      { is_enabled: 'maybe' },
      'is_enabled',
      'is_enabled must be 0 or 1.',
      'validation_failed',
    ],
  ])('refuses an update with %s, changing nothing', async (_case, body, field, title, code) => {
    const id = await createDomain({
      host: `keep-${_case.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`,
    });
    const before = await getDomain(id);
    const res = await t.http.post(`/v1/domains/${id}`).set('Authorization', owner.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ status: 400, title, field, code }] });
    expect(await getDomain(id)).toEqual(before);
  });

  it('refuses is_enabled=1 before verification, telling what to publish', async () => {
    const id = await createDomain({ host: 'unverified.example.com' });
    const { verification } = await getDomain(id);
    const res = await t.http
      .post(`/v1/domains/${id}`)
      .set('Authorization', owner.auth)
      .field({ is_enabled: '1', scheme: 'http://' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: `The domain must be verified before it can be enabled: publish a TXT record at _linkdock.unverified.example.com with the value ${verification.value}, then send POST /v1/domains/${id}/verify.`,
          field: 'is_enabled',
          code: 'domain_not_verified',
        },
      ],
    });
    expect(await getDomain(id)).toMatchObject({ is_enabled: false, scheme: 'https://' });
  });

  describe('verification against a DNS server', () => {
    it('enables the domain when the TXT record carries its token, answering the whole object', async () => {
      const id = await createDomain({ host: 'verify.example.com' });
      const before = await getDomain(id);
      dns.records.set('_linkdock.verify.example.com', ['v=spf1 -all', before.verification.value]);

      const res = await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth);

      expect(res.status).toBe(200);
      const verified = {
        ...before,
        is_enabled: true,
        verification: {
          ...before.verification,
          verified_datetime: expect.stringMatching(DATETIME),
        },
        last_datetime: expect.stringMatching(DATETIME),
      };
      expect(res.body).toEqual({ data: verified });
      expect(await getDomain(id)).toEqual(verified);
      expect(dns.asked).toContain('_linkdock.verify.example.com');
    });

    it('fails with NXDOMAIN when no record is published', async () => {
      const id = await createDomain({ host: 'nothing.example.com' });
      const before = await getDomain(id);
      const { verification } = before;
      const res = await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: `Expected a TXT record at _linkdock.nothing.example.com with the value ${verification.value}, but the name _linkdock.nothing.example.com does not exist (NXDOMAIN). Publish the record, wait for DNS to update, and verify again.`,
            code: 'domain_verification_failed',
          },
        ],
      });
      expect(await getDomain(id)).toEqual(before);
    });

    it('fails naming the values found when the record carries another token', async () => {
      const id = await createDomain({ host: 'wrong.example.com' });
      const before = await getDomain(id);
      dns.records.set('_linkdock.wrong.example.com', ['linkdock-verify=stale', 'hello']);
      const res = await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: 400,
            title: `Expected a TXT record at _linkdock.wrong.example.com with the value ${before.verification.value}, but found only "linkdock-verify=stale", "hello". Publish the record, wait for DNS to update, and verify again.`,
            code: 'domain_verification_failed',
          },
        ],
      });
      expect(await getDomain(id)).toEqual(before);
    });

    it('fails when the name exists without TXT records', async () => {
      const id = await createDomain({ host: 'empty.example.com' });
      const { verification } = await getDomain(id);
      dns.records.set('_linkdock.empty.example.com', []);
      const res = await t.http.post(`/v1/domains/${id}/verify`).set('Authorization', owner.auth);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          status: 400,
          title: `Expected a TXT record at _linkdock.empty.example.com with the value ${verification.value}, but _linkdock.empty.example.com has no TXT records. Publish the record, wait for DNS to update, and verify again.`,
          code: 'domain_verification_failed',
        },
      ]);
    });

    it('disables on a host change, issues a new token, and needs a new verification', async () => {
      const id = await createDomain({ host: 'before.example.com' });
      expect((await publishAndVerify(id)).status).toBe(200);
      const verified = await getDomain(id);
      expect((await tlsCheck('before.example.com')).status).toBe(200);

      const res = await t.http
        .post(`/v1/domains/${id}`)
        .set('Authorization', owner.auth)
        .field('host', 'After.Example.com');
      expect(res.status).toBe(200);

      const moved = await getDomain(id);
      expect(moved).toEqual({
        ...verified,
        host: 'after.example.com',
        is_enabled: false,
        verification: {
          type: 'TXT',
          name: '_linkdock.after.example.com',
          value: expect.stringMatching(TOKEN_VALUE),
          verified_datetime: null,
        },
        last_datetime: expect.stringMatching(DATETIME),
      });
      expect(moved.verification.value).not.toBe(verified.verification.value);
      expect((await tlsCheck('before.example.com')).status).toBe(404);
      expect((await tlsCheck('after.example.com')).status).toBe(404);

      const enable = await t.http
        .post(`/v1/domains/${id}`)
        .set('Authorization', owner.auth)
        .field('is_enabled', '1');
      expect(enable.status).toBe(400);
      expect(enable.body.errors[0].code).toBe('domain_not_verified');

      expect((await publishAndVerify(id)).status).toBe(200);
      expect((await tlsCheck('after.example.com')).status).toBe(200);
    });

    it('disables with is_enabled=0 and re-enables a verified domain with is_enabled=1', async () => {
      const id = await createDomain({ host: 'toggle.example.com' });
      expect((await publishAndVerify(id)).status).toBe(200);

      const off = await t.http
        .post(`/v1/domains/${id}`)
        .set('Authorization', owner.auth)
        .field('is_enabled', '0');
      expect(off.status).toBe(200);
      expect(await getDomain(id)).toMatchObject({ is_enabled: false });
      expect((await tlsCheck('toggle.example.com')).status).toBe(404);

      const on = await t.http
        .post(`/v1/domains/${id}`)
        .set('Authorization', owner.auth)
        .send({ is_enabled: true });
      expect(on.status).toBe(200);
      expect(await getDomain(id)).toMatchObject({ is_enabled: true });
      expect((await tlsCheck('toggle.example.com')).status).toBe(200);
    });

    it('lets two users add the same host, but only one of them enable it', async () => {
      const mine = await createDomain({ host: 'shared.example.com' });
      const theirs = await createDomain({ host: 'shared.example.com' }, stranger);
      const inUse = {
        status: 400,
        title:
          'The domain shared.example.com is already enabled by another account; it can be enabled for only one.',
        code: 'domain_host_in_use',
      };

      expect((await publishAndVerify(mine)).status).toBe(200);
      // Both tokens published: the stranger controls DNS too, but the host is taken.
      const { verification } = await getDomain(theirs, stranger);
      dns.records.set(verification.name, [
        (await getDomain(mine)).verification.value,
        verification.value,
      ]);
      const refused = await t.http
        .post(`/v1/domains/${theirs}/verify`)
        .set('Authorization', stranger.auth);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ errors: [inUse] });
      expect(await getDomain(theirs, stranger)).toMatchObject({ is_enabled: false });

      // The owner steps back; the stranger verifies; now the owner cannot re-enable.
      await t.http
        .post(`/v1/domains/${mine}`)
        .set('Authorization', owner.auth)
        .field('is_enabled', '0');
      const theirsVerified = await t.http
        .post(`/v1/domains/${theirs}/verify`)
        .set('Authorization', stranger.auth);
      expect(theirsVerified.status).toBe(200);
      const again = await t.http
        .post(`/v1/domains/${mine}`)
        .set('Authorization', owner.auth)
        .field('is_enabled', '1');
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ errors: [{ ...inUse, field: 'is_enabled' }] });
      expect(await getDomain(mine)).toMatchObject({ is_enabled: false });
    });
  });

  it('lets the database keep a host enabled for one account at most', async () => {
    const domains = t.dataSource.getRepository(DomainEntity);
    const row = (userId: number, isEnabled: boolean) =>
      domains.insert({
        user_id: userId,
        scheme: 'https://',
        host: 'race.example.com',
        custom_index_url: '',
        custom_not_found_url: '',
        is_enabled: isEnabled,
        verification_token: 'x',
        verified_datetime: new Date(),
        datetime: new Date(),
        last_datetime: null,
      });
    await row(owner.id, true);
    await row(stranger.id, false);
    const third = await t.createUser();
    await expect(row(third.id, true)).rejects.toMatchObject({
      driverError: { code: expect.stringMatching(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/) },
    });
    expect(await domains.countBy({ host: 'race.example.com' })).toBe(2);
  });

  describe('tls-check', () => {
    beforeAll(async () => {
      const id = await createDomain({ host: 'tls.example.com' });
      expect((await publishAndVerify(id)).status).toBe(200);
      await createDomain({ host: 'tls-off.example.com' });
    });

    it('answers 200 without a key for an enabled domain, however it is written', async () => {
      const res = await tlsCheck('TLS.example.com.');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { domain: 'tls.example.com' } });
      expect(res.headers['x-ratelimit-limit']).toBe(String(t.config.apiRateLimit));
    });

    it.each(['tls-off.example.com', 'unknown.example.com', 'links.test', '127.0.0.1', 'x'])(
      'answers 404 for %s',
      async (domain) => {
        const res = await tlsCheck(domain);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          errors: [
            {
              status: 404,
              title: 'The domain you are looking for does not exist.',
              code: 'domain_not_found',
            },
          ],
        });
      },
    );

    it('answers 400 naming domain when it is missing', async () => {
      const res = await t.http.get('/v1/domains/tls-check');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          { status: 400, title: 'domain is required.', field: 'domain', code: 'validation_failed' },
        ],
      });
    });
  });

  it('deletes the domain and its links, keeping links of other domains', async () => {
    const id = await createDomain({ host: 'doomed.example.com' });
    const keep = await createDomain({ host: 'kept.example.com' });
    const links = t.dataSource.getRepository(LinkEntity);
    const link = (domainId: number, url: string) =>
      links.save(
        links.create({
          user_id: owner.id,
          project_id: null,
          domain_id: domainId,
          type: 'link',
          url,
          location_url: 'https://example.org/',
          settings: '{}',
          password_hash: null,
          clicks: 0,
          is_enabled: true,
          start_date: null,
          end_date: null,
          datetime: new Date(),
          last_datetime: null,
        }),
      );
    const visits = t.dataSource.getRepository(VisitEntity);
    const visited = async (linkId: number, count: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({
        link_id: linkId,
        datetime: new Date(Date.UTC(2026, 9, 1, i)),
        is_unique: true,
        visitor_hash: `v${i}`.padEnd(32, '0'),
      }));
      await visits.insert(rows);
      return linkId;
    };
    const doomed = [await visited((await link(id, 'one')).id, 3)];
    doomed.push(await visited((await link(id, 'two')).id, 2));
    const kept = [await visited((await link(keep, 'one')).id, 4)];
    kept.push(await visited((await link(0, 'main-one')).id, 1));

    // Another owner cannot delete it, nor its links' visits.
    const other = await t.createUser();
    const refused = await t.http.delete(`/v1/domains/${id}`).set('Authorization', other.auth);
    expect(refused.status).toBe(404);
    const chunked = await deleteLinkVisitsInChunks(t.app.get(Db), other.id, {
      domainId: id,
    });
    expect(chunked).toBe(0);
    expect(await Promise.all(doomed.map((l) => visits.countBy({ link_id: l })))).toEqual([3, 2]);

    const res = await t.http.delete(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id } });

    expect(await links.countBy({ domain_id: id })).toBe(0);
    expect(await links.countBy({ domain_id: keep })).toBe(1);
    expect(await links.countBy({ domain_id: 0, url: 'main-one' })).toBe(1);
    // The visits of its links go with them (on SQLite in chunks first); others' stay.
    expect(await Promise.all(doomed.map((l) => visits.countBy({ link_id: l })))).toEqual([0, 0]);
    expect(await Promise.all(kept.map((l) => visits.countBy({ link_id: l })))).toEqual([4, 1]);
    const again = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(again.status).toBe(404);
    const twice = await t.http.delete(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(twice.status).toBe(404);
  });

  it('announces DOMAIN_CHANGED after create, update, verification and delete', async () => {
    const emit = jest.spyOn(t.app.get(EventEmitter2), 'emit');
    try {
      const id = await createDomain({ host: 'events.example.com' });
      await t.http
        .post(`/v1/domains/${id}`)
        .set('Authorization', owner.auth)
        .field('host', 'events2.example.com');
      expect((await publishAndVerify(id)).status).toBe(200);
      await t.http.delete(`/v1/domains/${id}`).set('Authorization', owner.auth);
      // Refused requests announce nothing.
      await t.http.post('/v1/domains').set('Authorization', owner.auth).field('host', '1.2.3.4');
      await t.http.delete(`/v1/domains/${id}`).set('Authorization', owner.auth);

      expect(emit.mock.calls.filter(([name]) => name === DOMAIN_CHANGED)).toEqual([
        [DOMAIN_CHANGED, { domainId: id, host: 'events.example.com' }],
        [
          DOMAIN_CHANGED,
          { domainId: id, host: 'events2.example.com', previousHost: 'events.example.com' },
        ],
        [DOMAIN_CHANGED, { domainId: id, host: 'events2.example.com' }],
        [DOMAIN_CHANGED, { domainId: id, host: 'events2.example.com' }],
      ]);
    } finally {
      emit.mockRestore();
    }
  });

  describe('list', () => {
    let lister: TestUser;
    let ids: Record<string, number>;

    beforeAll(async () => {
      lister = await t.createUser();
      ids = {};
      for (const host of ['beta.example.net', 'alpha.example.org', 'gamma.example.net']) {
        ids[host] = await createDomain({ host }, lister);
      }
      expect((await publishAndVerify(ids['alpha.example.org'], lister)).status).toBe(200);
    });

    const list = (query: Record<string, string>) =>
      t.http.get('/v1/domains/').query(query).set('Authorization', lister.auth);

    it("lists only the caller's domains, newest first, with the whole objects", async () => {
      const res = await list({});
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: DomainBody) => d.id)).toEqual([
        ids['gamma.example.net'],
        ids['alpha.example.org'],
        ids['beta.example.net'],
      ]);
      expect(res.body.data[1]).toEqual(await getDomain(ids['alpha.example.org'], lister));
      expect(res.body.meta).toEqual({
        page: 1,
        results_per_page: 25,
        total: 3,
        total_results: 3,
        total_pages: 1,
      });
    });

    it('filters by is_enabled', async () => {
      const on = await list({ is_enabled: '1' });
      expect(on.body.data.map((d: DomainBody) => d.host)).toEqual(['alpha.example.org']);
      const off = await list({ is_enabled: '0' });
      expect(off.body.data.map((d: DomainBody) => d.host)).toEqual([
        'gamma.example.net',
        'beta.example.net',
      ]);
    });

    it('searches by host and orders by host', async () => {
      const res = await list({
        search: 'EXAMPLE.NET',
        search_by: 'host',
        order_by: 'host',
        order_type: 'ASC',
      });
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: DomainBody) => d.host)).toEqual([
        'beta.example.net',
        'gamma.example.net',
      ]);
      const byId = await list({ order_by: 'domain_id', order_type: 'ASC' });
      expect(byId.body.data.map((d: DomainBody) => d.host)).toEqual([
        'beta.example.net',
        'alpha.example.org',
        'gamma.example.net',
      ]);
      const byCreation = await list({ order_by: 'datetime', order_type: 'ASC' });
      expect(byCreation.body.data.map((d: DomainBody) => d.host)).toEqual([
        'beta.example.net',
        'alpha.example.org',
        'gamma.example.net',
      ]);
    });

    it('filters by a datetime field: only the verified domain has a last_datetime', async () => {
      const updated = await list({
        datetime_field: 'last_datetime',
        datetime_start: '2000-01-01 00:00:00',
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data.map((d: DomainBody) => d.host)).toEqual(['alpha.example.org']);
      const none = await list({ datetime_field: 'datetime', datetime_end: '2000-01-01 00:00:00' });
      expect(none.body.data).toEqual([]);
    });

    it.each([
      ['order_by', 'name', 'order_by must be one of domain_id, datetime, last_datetime, host.'],
      ['search_by', 'scheme', 'search_by must be one of host.'],
      [
        'datetime_field',
        'verified_datetime',
        'datetime_field must be one of datetime, last_datetime.',
      ],
      ['is_enabled', 'yes', 'is_enabled must be one of 0, 1.'],
    ])('refuses %s=%s with 400 naming the allowed values', async (field, value, title) => {
      const res = await list({ [field]: value, ...(field === 'search_by' ? { search: 'a' } : {}) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ status: 400, title, field, code: 'invalid_list_parameter' }],
      });
    });
  });

  describe("another user's domain is a 404, like a missing one", () => {
    let id: number;
    beforeAll(async () => {
      id = await createDomain({ host: 'private.example.com' });
    });
    const notFound = {
      errors: [
        {
          status: 404,
          title: 'The domain you are looking for does not exist.',
          code: 'domain_not_found',
        },
      ],
    };

    it.each([
      ['GET', ''],
      ['POST', ''],
      ['POST', '/verify'],
      ['DELETE', ''],
    ])('on %s /v1/domains/{id}%s, leaving it unchanged', async (method, suffix) => {
      const before = await getDomain(id);
      const path = `/v1/domains/${id}${suffix}`;
      const res =
        method === 'GET'
          ? await t.http.get(path).set('Authorization', stranger.auth)
          : method === 'DELETE'
            ? await t.http.delete(path).set('Authorization', stranger.auth)
            : await t.http
                .post(path)
                .set('Authorization', stranger.auth)
                .send({ host: 'stolen.example.com', is_enabled: 0 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect(await getDomain(id)).toEqual(before);
    });

    it('in lists', async () => {
      const res = await t.http.get('/v1/domains').set('Authorization', stranger.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: DomainBody) => d.id)).not.toContain(id);
    });
  });

  it.each(['abc', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
    const res = await t.http.get(`/v1/domains/${id}`).set('Authorization', owner.auth);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('domain_not_found');
  });

  it.each([
    ['GET', '/v1/domains'],
    ['GET', '/v1/domains/1'],
    ['POST', '/v1/domains'],
    ['POST', '/v1/domains/1'],
    ['POST', '/v1/domains/1/verify'],
    ['DELETE', '/v1/domains/1'],
  ])('answers %s %s without a key with 401', async (method, path) => {
    const res = await t.http[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      errors: [
        {
          status: 401,
          title: 'The request is missing the Bearer Authentication header.',
          code: 'unauthorized',
        },
      ],
    });
  });
});

describe('Domains tls-check rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_RATE_LIMIT: '2' } });
  });
  afterAll(() => t?.close());

  it('counts keyless tls-check requests per client address and answers 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      codes.push(
        (await t.http.get('/v1/domains/tls-check').query({ domain: 'a.example.com' })).status,
      );
    }
    expect(codes).toEqual([404, 404, 429]);
  });
});
