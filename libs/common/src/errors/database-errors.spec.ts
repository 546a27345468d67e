import { isDataError } from './database-errors';

/** A PostgreSQL error as TypeORM raises it (QueryFailedError carries the driver's error). */
function pgError(code: string): Error {
  return Object.assign(new Error(`pg ${code}`), { driverError: { code } });
}

describe(isDataError.name, () => {
  it('tells data errors from database faults', () => {
    expect(isDataError(pgError('22021'))).toBe(true);
    expect(isDataError(pgError('23503'))).toBe(true);
    expect(isDataError(pgError('21000'))).toBe(true);
    expect(isDataError(pgError('57P01'))).toBe(false);
    expect(isDataError(pgError('08006'))).toBe(false);
    expect(isDataError(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT_CHECK' }))).toBe(
      true,
    );
    expect(isDataError(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(isDataError(new Error('connect ECONNREFUSED'))).toBe(false);
  });
});
