import { Actor } from '@app/auth';
import { Clock, ErrorEntry } from '@app/common';
import { loadConfig } from '@app/config';
import {
  ProjectEntity,
  ProjectsRepository,
  SignatureEntity,
  SignaturesRepository,
} from '@app/database';
import { DEFAULT_SETTINGS } from '@app/signatures';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import { mergeSettings, SignaturesService } from './signatures.service';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };
const config = loadConfig({ APP_URL: 'https://links.example.com' });

/** Owner-scoped fakes of the two repositories the service uses. */
class FakeSignatures {
  readonly rows: SignatureEntity[] = [];
  findOwned(ownerId: number, id: number) {
    const row = this.rows.find((r) => r.id === id && r.user_id === ownerId);
    return Promise.resolve(row ? Object.assign(new SignatureEntity(), row) : null);
  }
  findByPreviewToken(token: string) {
    return Promise.resolve(this.rows.find((r) => r.preview_token === token) ?? null);
  }
  insert(values: Omit<SignatureEntity, 'id'>) {
    const id = this.rows.length + 1;
    this.rows.push(Object.assign(new SignatureEntity(), values, { id }));
    return Promise.resolve(id);
  }
  save(entity: SignatureEntity) {
    this.rows[this.rows.findIndex((r) => r.id === entity.id)] = entity;
    return Promise.resolve(entity);
  }
}

const projects = {
  findOwned: (ownerId: number, id: number) =>
    Promise.resolve(
      ownerId === 2 && id === 40 ? Object.assign(new ProjectEntity(), { id, user_id: 2 }) : null,
    ),
};

describe(SignaturesService.name, () => {
  let repo: FakeSignatures;
  let service: SignaturesService;
  let checks: PlanCheck[];

  beforeEach(() => {
    repo = new FakeSignatures();
    // Plans limit nothing here; the writes run at once.
    const writes = inlineWrites();
    checks = writes.checks;
    service = new SignaturesService(
      writes.db,
      writes.limits,
      repo as unknown as SignaturesRepository,
      projects as unknown as ProjectsRepository,
      clock,
      config,
    );
  });

  it('creates in the owner workspace with default settings and a random preview token', async () => {
    expect(await service.create(ACTOR, { name: 'Work', full_name: 'Ada' } as never)).toEqual({
      id: 1,
    });
    await service.create(ACTOR, { name: 'Other' });
    expect(checks).toEqual([
      { ownerId: 2, needs: { signatures: 1 } },
      { ownerId: 2, needs: { signatures: 1 } },
    ]);
    const [row, other] = repo.rows;
    expect(row).toMatchObject({
      user_id: 2,
      project_id: null,
      name: 'Work',
      template: 'mars',
      datetime: NOW,
      last_datetime: null,
    });
    expect(JSON.parse(row.settings)).toEqual({ ...DEFAULT_SETTINGS, full_name: 'Ada' });
    expect(row.preview_token).toMatch(/^[\w-]{32}$/);
    expect(other.preview_token).not.toBe(row.preview_token);
  });

  it('refuses a project outside the owner workspace with 400 invalid_reference', async () => {
    const expected: ErrorEntry[] = [
      {
        status: 400,
        title: 'project_id must be one of your projects.',
        field: 'project_id',
        code: 'invalid_reference',
      },
    ];
    expect(await rejectionEntries(service.create(ACTOR, { name: 'x', project_id: 41 }))).toEqual(
      expected,
    );
    expect(repo.rows).toEqual([]);
    await service.create(ACTOR, { name: 'x', project_id: 40 });
    expect(repo.rows[0].project_id).toBe(40);
  });

  it('answers 404 for a signature of another workspace', async () => {
    await service.create({ ...ACTOR, ownerId: 3 }, { name: 'theirs' });
    expect(await rejectionEntries(service.html(ACTOR, 1))).toEqual([
      {
        status: 404,
        title: 'The signature you are looking for does not exist.',
        code: 'signature_not_found',
      },
    ]);
  });

  it('renders HTML and the preview URL on APP_URL; the page only for a well-formed known token', async () => {
    await service.create(ACTOR, { name: 'Work', full_name: 'Ada' } as never);
    const { html, preview_url } = await service.html(ACTOR, 1);
    expect(html).toContain('>Ada</div>');
    expect(preview_url).toBe(
      `https://links.example.com/signatures/preview/${repo.rows[0].preview_token}`,
    );
    expect(await service.previewPage(repo.rows[0].preview_token)).toContain('>Ada</div>');
    expect(await service.previewPage('A'.repeat(32))).toBeNull();
    expect(await service.previewPage('short')).toBeNull();
  });

  it('mergeSettings replaces only the keys that were sent', () => {
    expect(
      mergeSettings(
        { ...DEFAULT_SETTINGS, company: 'Old', width: 600 },
        { company: '', name: 'n' },
      ),
    ).toEqual({ ...DEFAULT_SETTINGS, company: '', width: 600 });
  });
});
