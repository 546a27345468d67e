import type { PlanLimits } from '@app/billing';
import type { Db } from '@app/database';

/** A plan check a service made inside its write. */
export interface PlanCheck {
  ownerId: number;
  needs: Parameters<PlanLimits['check']>[1];
}

/**
 * For unit specs of services whose repositories are fakes: a Db whose writes run at once (a write
 * inside a write joins it, as in Db.write) and PlanLimits that limit nothing but, like the real
 * `check`, refuse to run outside an open write. `checks` lists the checks made.
 */
export function inlineWrites(): { db: Db; limits: PlanLimits; checks: PlanCheck[] } {
  let writing = false;
  const db = {
    get writing() {
      return writing;
    },
    write: async <T>(work: () => Promise<T>): Promise<T> => {
      if (writing) return work();
      writing = true;
      try {
        return await work();
      } finally {
        writing = false;
      }
    },
  };
  const checks: PlanCheck[] = [];
  const limits = {
    check: (ownerId: number, needs: PlanCheck['needs']): Promise<void> => {
      if (!writing) {
        return Promise.reject(new Error('PlanLimits.check runs inside an open write (Db.write)'));
      }
      checks.push({ ownerId, needs });
      return Promise.resolve();
    },
    precheck: (): Promise<void> => Promise.resolve(),
  };
  return { db: db as unknown as Db, limits: limits as unknown as PlanLimits, checks };
}
