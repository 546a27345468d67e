import { Db, type PlanSettings, UNLIMITED_PLAN } from '@app/database';
import { inlineWrites } from '@app/testing/inline-writes';
import { addMonths } from './payment-values';
import { PlanLimits, refusal } from './plan-limits';
import { PlansService } from './plans.service';

/**
 * A Db whose writes run at once (inlineWrites) and whose queries answer `used` (as COUNT(*)),
 * recording the SQL and whether it runs in a write; its placeholders are the real Db's.
 */
function fakeDb(dialect: 'sqlite' | 'postgres', used: number, sql: string[]) {
  const { db } = inlineWrites();
  const query = (text: string, parameters: unknown[] = []) => {
    sql.push(`${db.writing ? 'in a write: ' : ''}${text} [${parameters.join(', ')}]`);
    return Promise.resolve([{ n: used }]);
  };
  return Object.assign(db, {
    dialect,
    concurrentWrites: dialect === 'postgres',
    manager: { query },
    prepared: (text: string) => ({ all: (values: unknown[] = []) => query(text, values) }),
    placeholder: (n: number) => Db.prototype.placeholder.call({ dialect }, n),
  });
}

function limitsWith(
  settings: Partial<PlanSettings>,
  used: number,
  dialect: 'sqlite' | 'postgres' = 'sqlite',
) {
  const sql: string[] = [];
  const db = fakeDb(dialect, used, sql);
  const planReads: number[] = [];
  const plans = {
    effective: (userId: number) => {
      planReads.push(userId);
      return Promise.resolve({
        planId: 1,
        expiration: null,
        settings: { ...UNLIMITED_PLAN, ...settings },
      });
    },
  } as unknown as PlansService;
  return {
    limits: new PlanLimits(plans, db),
    sql,
    planReads,
    db: db as Db,
  };
}

describe(PlanLimits.name, () => {
  describe('check', () => {
    it('refuses to run outside an open write', async () => {
      const { limits, sql } = limitsWith({ links_limit: 10 }, 0);
      await expect(limits.check(7, { links: 1 })).rejects.toThrow(
        'PlanLimits.check runs inside an open write (Db.write)',
      );
      expect(sql).toEqual([]);
    });

    it.each(['sqlite', 'postgres'] as const)(
      'neither locks nor counts what the plan does not limit, nor what a write does not add (%s)',
      async (dialect) => {
        const { limits, sql, db } = limitsWith(
          { qr_codes_limit: 1, static_storage_bytes: 10 },
          5,
          dialect,
        );
        await db.write(() =>
          limits.check(7, { links: 1, qr_codes: 0, static_storage_bytes: -300 }),
        );
        expect(sql).toEqual([]);
      },
    );

    it('reads no plan for a write that adds nothing (a link update without a larger site)', async () => {
      const { limits, sql, planReads, db } = limitsWith({ static_storage_bytes: 10 }, 50);
      await db.write(() => limits.check(7, {}));
      await db.write(() => limits.check(7, { static_storage_bytes: 0 }));
      expect(planReads).toEqual([]);
      expect(sql).toEqual([]);
    });

    it('counts in the open write while there is room (SQLite: no lock)', async () => {
      const { limits, sql, db } = limitsWith({ links_limit: 10 }, 9);
      await expect(db.write(() => limits.check(7, { links: 1 }))).resolves.toBeUndefined();
      expect(sql).toEqual([
        'in a write: SELECT COUNT(*) AS n FROM "links" WHERE "user_id" = ? [7]',
      ]);
    });

    it('locks the owner row on PostgreSQL before it counts', async () => {
      const { limits, sql, db } = limitsWith({ links_limit: 10, domains_limit: 3 }, 2, 'postgres');
      await db.write(() => limits.check(7, { links: 1, domains: 1 }));
      expect(sql).toEqual([
        'in a write: SELECT "id" FROM "users" WHERE "id" = $1 FOR UPDATE [7]',
        'in a write: SELECT COUNT(*) AS n FROM "links" WHERE "user_id" = $1 [7]',
        'in a write: SELECT COUNT(*) AS n FROM "domains" WHERE "user_id" = $1 [7]',
      ]);
    });

    it('refuses with plan_limit_reached past the limit, before the write goes on', async () => {
      const { limits, db } = limitsWith({ links_limit: 10 }, 9);
      const insert = jest.fn(() => Promise.resolve(1));
      await expect(
        db.write(async () => {
          await limits.check(7, { links: 2 });
          return insert();
        }),
      ).rejects.toMatchObject({
        code: 'plan_limit_reached',
        problems: [{ title: 'Your plan allows 10 links; you have 9 and this request adds 2.' }],
      });
      expect(insert).not.toHaveBeenCalled();
    });
  });

  describe('precheck', () => {
    it('counts outside any write, without a lock, and refuses past the limit', async () => {
      const { limits, sql } = limitsWith({ links_limit: 10 }, 9, 'postgres');
      await expect(limits.precheck(7, { links: 1 })).resolves.toBeUndefined();
      await expect(limits.precheck(7, { links: 3 })).rejects.toMatchObject({
        code: 'plan_limit_reached',
        problems: [{ title: 'Your plan allows 10 links; you have 9 and this request adds 3.' }],
      });
      expect(sql).toEqual([
        'SELECT COUNT(*) AS n FROM "links" WHERE "user_id" = $1 [7]',
        'SELECT COUNT(*) AS n FROM "links" WHERE "user_id" = $1 [7]',
      ]);
    });
  });
});

describe('refusal', () => {
  it.each([
    ['links', 1, 1, 1, 'Your plan allows 1 link; you have 1.'],
    ['qr_codes', 3, 4, 1, 'Your plan allows 3 QR codes; you have 4.'],
    ['links', 100, 95, 10, 'Your plan allows 100 links; you have 95 and this request adds 10.'],
    [
      'static_storage_bytes',
      100,
      60,
      61,
      'Your plan allows 100 bytes of static sites; you have 60 and this site needs 61.',
    ],
  ] as const)('names %s: %i allowed, %i used, %i added', (resource, limit, used, adding, title) => {
    expect(refusal(resource, limit, used, adding)).toBe(title);
  });
});

describe(addMonths.name, () => {
  it.each([
    ['2026-01-31T10:00:00Z', 1, '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2026-11-30T00:00:00Z', 3, '2027-02-28T00:00:00.000Z'],
    ['2026-08-31T23:59:59Z', 6, '2027-02-28T23:59:59.000Z'],
    ['2026-02-28T12:00:00Z', 12, '2027-02-28T12:00:00.000Z'],
  ])('%s + %i months = %s', (from, months, expected) => {
    expect(addMonths(new Date(from), months).toISOString()).toBe(expected);
  });
});
