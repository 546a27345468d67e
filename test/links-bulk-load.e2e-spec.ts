import { join } from 'node:path';
import { PlansService } from '@app/billing';
import { OwnerLocks } from '@app/redis';
import { closeAfterAll, createTestApp, createTestDatabase, TestApp, TestUser } from '@app/testing';
import { runCli } from '../apps/cli/src/cli';

const FIXTURES = join(__dirname, 'fixtures', 'imports');

/** Slowest /health answer while `work` runs, probing every ~50 ms. */
async function slowestHealthDuring<T>(t: TestApp, work: () => Promise<T>): Promise<[T, number]> {
  let slowest = 0;
  let running = true;
  const probe = async () => {
    while (running) {
      const started = performance.now();
      const res = await t.http.get('/health');
      expect(res.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const probing = probe();
  let result: T;
  try {
    result = await work();
  } finally {
    running = false;
    // The probe in flight when the work ends counts too.
    await probing;
  }
  console.log(`slowest /health: ${Math.round(slowest)} ms`);
  return [result, slowest];
}

const links = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    location_url: `https://example.com/${tag}/${i}`,
    utm_source: 'load',
  }));

describe('Bulk links under load', () => {
  let t: TestApp;
  const opened = closeAfterAll();

  const bulk = (user: TestUser, body: unknown) =>
    t.http
      .post('/v1/links/bulk')
      .set('Authorization', user.auth)
      .send(body as object);

  beforeAll(async () => {
    t = opened.add(await createTestApp({ env: { API_RATE_LIMIT: '1000000' } }));
    // The first bulk of a process compiles the code it runs; what is measured is the steady state.
    const warm = await bulk(await t.createUser(), links(100, 'warm'));
    expect(warm.status).toBe(201);
  });

  it('runs one bulk per account at a time: 7 of 8 concurrent get 429 bulk_in_progress, /health stays responsive', async () => {
    const user = await t.createUser();
    const [answers, slowest] = await slowestHealthDuring(t, () =>
      Promise.all(Array.from({ length: 8 }, (_, i) => bulk(user, links(1000, `one${i}`)))),
    );
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created).toHaveLength(1);
    expect(created[0].body.data).toHaveLength(1000);
    expect(refused).toHaveLength(7);
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        errors: [
          {
            status: 429,
            title:
              'Another bulk create or import of this account is running; send this one when it has finished.',
            code: 'bulk_in_progress',
          },
        ],
      });
    }
    expect(slowest).toBeLessThan(500);
    const me = await t.http.get('/v1/user').set('Authorization', user.auth);
    expect(me.body.data.usage.links.used).toBe(1000);
  });

  it('runs bulks of different accounts side by side: 8 of 8 succeed, /health stays responsive', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => t.createUser()));
    const [answers, slowest] = await slowestHealthDuring(t, () =>
      Promise.all(users.map((user, i) => bulk(user, links(1000, `many${i}`)))),
    );
    expect(answers.map((res) => [res.status, res.body.data?.length])).toEqual(
      users.map(() => [201, 1000]),
    );
    expect(slowest).toBeLessThan(500);
  });

  it('refuses bulks beyond the plan before checking their links, /health stays responsive', async () => {
    const plans = t.app.get(PlansService);
    const user = await t.createUser();
    const plan = await plans.create({ name: 'Small', settings: { links_limit: 10 } });
    await plans.setUserPlan(user.id, plan.id, null);
    const [answers, slowest] = await slowestHealthDuring(t, () =>
      Promise.all(Array.from({ length: 8 }, (_, i) => bulk(user, links(1000, `plan${i}`)))),
    );
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: 403,
            title: 'Your plan allows 10 links; you have 0 and this request adds 1000.',
            code: 'plan_limit_reached',
          },
        ],
      });
    }
    expect(slowest).toBeLessThan(500);
  });
});

describe('Bulk links on two instances sharing Redis', () => {
  const opened = closeAfterAll();

  it('refuses a bulk on one instance, and an import, while the account holds the lock on the other', async () => {
    const database = opened.add(await createTestDatabase(), (db) => db.drop());
    const env = {
      API_RATE_LIMIT: '1000000',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    };
    const first = opened.add(await createTestApp({ database, env }));
    const second = opened.add(await createTestApp({ database, env }));
    const user = await first.createUser();
    const release = await first.app.get(OwnerLocks).tryAcquire('links-bulk', user.id);
    expect(release).not.toBeNull();
    const send = () =>
      second.http.post('/v1/links/bulk').set('Authorization', user.auth).send(links(3, 'redis'));
    const refused = await send();
    const errors: string[] = [];
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toEqual({
      errors: [
        {
          status: 429,
          title:
            'Another bulk create or import of this account is running; send this one when it has finished.',
          code: 'bulk_in_progress',
        },
      ],
    });
    // The command line's import, a process of its own, takes the same lock.
    const imported = await runCli(
      ['import', '--email', user.email, '--from', 'csv', join(FIXTURES, 'linkdock-links.csv')],
      second.config,
      { out: () => undefined, err: (line) => errors.push(line), write: () => Promise.resolve() },
    );
    expect(imported).not.toBe(0);
    expect(JSON.parse(errors[errors.length - 1])).toEqual(refused.body);
    await release!();
    const created = await send();
    expect(created.status).toBe(201);
    expect(created.body.data).toHaveLength(3);
  });
});
