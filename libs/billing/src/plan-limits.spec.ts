import { type Db, type PlanSettings, UNLIMITED_PLAN } from '@app/database';
import { addMonths } from './payment-values';
import { PlanLimits, refusal } from './plan-limits';
import { PlansService } from './plans.service';

/** A SQLite Db whose COUNT(*) answers `used`, recording the SQL and whether it runs in a write. */
function fakeDb(used: number, sql: string[], writes: number[]) {
  let writing = false;
  const query = (text: string) => {
    sql.push(`${writing ? 'in a write: ' : ''}${text}`);
    return Promise.resolve([{ n: used }]);
  };
  return {
    dialect: 'sqlite',
    get writing() {
      return writing;
    },
    manager: { query },
    prepared: (text: string) => ({ all: () => query(text) }),
    write: async (work: () => Promise<unknown>) => {
      writes.push(1);
      writing = true;
      try {
        return await work();
      } finally {
        writing = false;
      }
    },
  };
}

function limitsWith(settings: Partial<PlanSettings>, used: number) {
  const sql: string[] = [];
  const transactions: number[] = [];
  const db = fakeDb(used, sql, transactions);
  const plans = {
    effective: () =>
      Promise.resolve({
        planId: 1,
        expiration: null,
        settings: { ...UNLIMITED_PLAN, ...settings },
      }),
  } as unknown as PlansService;
  return { limits: new PlanLimits(plans, db as unknown as Db), sql, transactions, db };
}

describe(PlanLimits.name, () => {
  it('writes without opening a write when the plan does not limit what is added', async () => {
    const { limits, transactions } = limitsWith({ qr_codes_limit: 1 }, 5);
    const write = jest.fn(() => Promise.resolve('written'));
    await expect(limits.within(7, { links: 1 }, write)).resolves.toBe('written');
    expect(transactions).toEqual([]);
  });

  it('counts and writes in one write while there is room', async () => {
    const { limits, sql, transactions, db } = limitsWith({ links_limit: 10 }, 9);
    const result = await limits.within(7, { links: 1 }, () => Promise.resolve(db.writing));
    expect(result).toBe(true);
    expect(transactions).toEqual([1]);
    expect(sql).toEqual(['in a write: SELECT COUNT(*) AS n FROM "links" WHERE "user_id" = ?']);
  });

  it('refuses with plan_limit_reached and does not write past the limit', async () => {
    const { limits } = limitsWith({ links_limit: 10 }, 9);
    const write = jest.fn(() => Promise.resolve(1));
    await expect(limits.within(7, { links: 2 }, write)).rejects.toMatchObject({
      code: 'plan_limit_reached',
      problems: [{ title: 'Your plan allows 10 links; you have 9 and this request adds 2.' }],
    });
    expect(write).not.toHaveBeenCalled();
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
