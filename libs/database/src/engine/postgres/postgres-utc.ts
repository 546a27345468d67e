import pg from 'pg';

let applied = false;

/**
 * Datetimes are stored as `timestamp without time zone` holding UTC. node-postgres would read and
 * write them in the process's local zone; make both directions UTC whatever TZ the host has.
 */
export function usePostgresUtc(): void {
  if (applied) {
    return;
  }
  applied = true;
  const TIMESTAMP_OID = 1114;
  pg.types.setTypeParser(TIMESTAMP_OID, (value: string) =>
    value === 'infinity' || value === '-infinity' ? null : new Date(`${value.replace(' ', 'T')}Z`),
  );
  pg.defaults.parseInputDatesAsUTC = true;
}
