import { getMetadataArgsStorage } from 'typeorm';
import { type NewVisit, VISIT_COLUMNS, VisitEntity } from '@app/database';

type VisitRow = Omit<VisitEntity, 'id' | 'link'>;

describe('NewVisit', () => {
  it('is a row of the visits table without its id, column for column', () => {
    const columns = getMetadataArgsStorage()
      .columns.filter((c) => c.target === VisitEntity && c.propertyName !== 'id')
      .map((c) => c.propertyName);
    expect([...VISIT_COLUMNS].sort()).toEqual(columns.sort());
    // The roll-up code spells NewVisit out instead of importing the entity: these two
    // assignments keep the types the same.
    const visit: NewVisit = {} as VisitRow;
    const row: VisitRow = visit;
    expect(row).toBe(visit);
  });
});
