import { Actor } from '@app/auth';
import { Clock, ErrorEntry, ListQuery, Paginated } from '@app/common';
import { ProjectEntity, ProjectsRepository } from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import { ProjectsService } from './projects.service';

type ProjectsPort = Pick<
  ProjectsRepository,
  'findOwned' | 'listOwned' | 'insert' | 'save' | 'deleteOwned'
>;

/** An in-memory ProjectsRepository that keeps the owner scoping of the real one. */
class FakeProjectsRepository implements ProjectsPort {
  readonly rows: ProjectEntity[] = [];
  readonly inserted: Array<Omit<ProjectEntity, 'id'>> = [];
  readonly listed: Array<{ ownerId: number; query: ListQuery }> = [];

  findOwned(ownerId: number, id: number): Promise<ProjectEntity | null> {
    const row = this.rows.find((p) => p.id === id && p.user_id === ownerId);
    return Promise.resolve(row ? Object.assign(new ProjectEntity(), row) : null);
  }

  listOwned(ownerId: number, query: ListQuery): Promise<Paginated<ProjectEntity>> {
    this.listed.push({ ownerId, query });
    const owned = this.rows.filter((p) => p.user_id === ownerId);
    return Promise.resolve(new Paginated(owned, owned.length, query.page, query.resultsPerPage));
  }

  insert(values: Omit<ProjectEntity, 'id'>): Promise<number> {
    this.inserted.push(values);
    const id = 100 + this.rows.length;
    this.rows.push(Object.assign(new ProjectEntity(), values, { id }));
    return Promise.resolve(id);
  }

  save(entity: ProjectEntity): Promise<ProjectEntity> {
    const index = this.rows.findIndex((p) => p.id === entity.id);
    this.rows[index] = Object.assign(new ProjectEntity(), entity);
    return Promise.resolve(entity);
  }

  deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const index = this.rows.findIndex((p) => p.id === id && p.user_id === ownerId);
    if (index < 0) {
      return Promise.resolve(false);
    }
    this.rows.splice(index, 1);
    return Promise.resolve(true);
  }
}

const NOW = new Date('2026-11-21T10:00:00.000Z');
const CREATED = new Date('2026-01-02T03:04:05.678Z');
const clock: Clock = { now: () => new Date(NOW) };

/** A team member acting in the owner's workspace: ownerId differs from userId on purpose. */
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };

const QUERY: ListQuery = {
  page: 1,
  resultsPerPage: 25,
  search: null,
  order: { column: 'id', direction: 'DESC' },
  datetime: null,
  filters: [],
};

const NOT_FOUND: ErrorEntry[] = [
  {
    status: 404,
    title: 'The project you are looking for does not exist.',
    code: 'project_not_found',
  },
];

function project(values: Partial<ProjectEntity> & { id: number; user_id: number }): ProjectEntity {
  return Object.assign(new ProjectEntity(), {
    name: 'Marketing',
    color: '#0e23cc',
    datetime: CREATED,
    last_datetime: null,
    ...values,
  });
}

const entriesOf = (promise: Promise<unknown>): Promise<ErrorEntry[]> => rejectionEntries(promise);

describe(ProjectsService.name, () => {
  let repository: FakeProjectsRepository;
  let service: ProjectsService;
  let checks: PlanCheck[];

  beforeEach(() => {
    repository = new FakeProjectsRepository();
    repository.rows.push(
      project({ id: 5, user_id: 2 }),
      project({ id: 6, user_id: 2, name: 'Docs', color: '#ffffff', last_datetime: NOW }),
      // Belongs to the caller's own workspace (userId), not to the workspace it acts in.
      project({ id: 7, user_id: 1, name: 'Private' }),
    );
    // Plans limit nothing here; the writes run at once.
    const writes = inlineWrites();
    checks = writes.checks;
    service = new ProjectsService(
      writes.db,
      writes.limits,
      repository as unknown as ProjectsRepository,
      clock,
    );
  });

  describe('create', () => {
    it('creates a project in the owner workspace with the default colour', async () => {
      expect(await service.create(ACTOR, { name: 'Launch' })).toEqual({ id: 103 });
      expect(checks).toEqual([{ ownerId: 2, needs: { projects: 1 } }]);
      expect(repository.inserted).toEqual([
        { user_id: 2, name: 'Launch', color: '#000000', datetime: NOW, last_datetime: null },
      ]);
    });

    it('keeps a given colour', async () => {
      await service.create(ACTOR, { name: 'Launch', color: '#0a0b0c' });

      expect(repository.inserted).toEqual([
        { user_id: 2, name: 'Launch', color: '#0a0b0c', datetime: NOW, last_datetime: null },
      ]);
    });
  });

  describe('get', () => {
    it('returns the response shape with Y-m-d H:i:s datetimes', async () => {
      expect(await service.get(ACTOR, 6)).toEqual({
        id: 6,
        name: 'Docs',
        color: '#ffffff',
        last_datetime: '2026-11-21 10:00:00',
        datetime: '2026-01-02 03:04:05',
      });
    });

    it('rejects a missing project with 404 project_not_found', async () => {
      expect(await entriesOf(service.get(ACTOR, 404))).toEqual(NOT_FOUND);
    });

    it('rejects a project outside the owner workspace with 404 project_not_found', async () => {
      expect(await entriesOf(service.get(ACTOR, 7))).toEqual(NOT_FOUND);
    });
  });

  describe('update', () => {
    it('changes the given fields and stamps last_datetime', async () => {
      expect(await service.update(ACTOR, 5, { name: 'Sales', color: '#123456' })).toEqual({
        id: 5,
      });
      expect(repository.rows[0]).toEqual(
        project({
          id: 5,
          user_id: 2,
          name: 'Sales',
          color: '#123456',
          datetime: CREATED,
          last_datetime: NOW,
        }),
      );
    });

    it('keeps absent fields', async () => {
      await service.update(ACTOR, 6, {});

      expect(repository.rows[1]).toEqual(
        project({
          id: 6,
          user_id: 2,
          name: 'Docs',
          color: '#ffffff',
          datetime: CREATED,
          last_datetime: NOW,
        }),
      );
    });

    it('keeps the colour when only the name changes', async () => {
      await service.update(ACTOR, 5, { name: 'Sales' });

      expect(repository.rows[0]).toEqual(
        project({ id: 5, user_id: 2, name: 'Sales', color: '#0e23cc', last_datetime: NOW }),
      );
    });

    it.each([[404], [7]])('rejects project %i with 404 project_not_found', async (id) => {
      expect(await entriesOf(service.update(ACTOR, id, { name: 'Stolen' }))).toEqual(NOT_FOUND);
      expect(repository.rows[2]).toEqual(project({ id: 7, user_id: 1, name: 'Private' }));
    });
  });

  describe('remove', () => {
    it('deletes a project of the owner workspace', async () => {
      expect(await service.remove(ACTOR, 5)).toEqual({ id: 5 });
      expect(repository.rows.map((p) => p.id)).toEqual([6, 7]);
    });

    it.each([[404], [7]])('rejects project %i with 404 project_not_found', async (id) => {
      expect(await entriesOf(service.remove(ACTOR, id))).toEqual(NOT_FOUND);
      expect(repository.rows.map((p) => p.id)).toEqual([5, 6, 7]);
    });
  });

  describe('list', () => {
    it('lists the owner workspace and maps each project to the response shape', async () => {
      const query: ListQuery = { ...QUERY, page: 2, resultsPerPage: 10 };

      const page = await service.list(ACTOR, query);

      expect(repository.listed).toEqual([{ ownerId: 2, query }]);
      expect(page).toBeInstanceOf(Paginated);
      expect(page).toEqual(
        new Paginated(
          [
            {
              id: 5,
              name: 'Marketing',
              color: '#0e23cc',
              last_datetime: null,
              datetime: '2026-01-02 03:04:05',
            },
            {
              id: 6,
              name: 'Docs',
              color: '#ffffff',
              last_datetime: '2026-11-21 10:00:00',
              datetime: '2026-01-02 03:04:05',
            },
          ],
          2,
          2,
          10,
        ),
      );
    });
  });
});
