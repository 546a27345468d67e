import { EventEmitter2 } from '@nestjs/event-emitter';
import { Actor } from '@app/auth';
import { AppError, Clock, ErrorEntry, LINK_CHANGED, UploadedFile } from '@app/common';
import { LinkAddress, SplashPageEntity, SplashPagesRepository } from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { inlineWrites, type PlanCheck } from '@app/testing/inline-writes';
import { SplashFiles, SplashImage } from './splash-files';
import { SplashPagesService } from './splash-pages.service';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };
/** A team member acting in the owner's workspace. */
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };
const NOT_FOUND: ErrorEntry[] = [
  {
    status: 404,
    title: 'The splash page you are looking for does not exist.',
    code: 'splash_page_not_found',
  },
];

/** Keeps the owner scoping of the real repository. */
class FakeRepository {
  rows: SplashPageEntity[] = [];
  links: Array<LinkAddress & { user_id: number; splash_page_id: number | null }> = [];
  failSave = false;

  findOwned(ownerId: number, id: number): Promise<SplashPageEntity | null> {
    const row = this.rows.find((r) => r.id === id && r.user_id === ownerId);
    return Promise.resolve(row ? copy(row) : null);
  }
  insert(values: Omit<SplashPageEntity, 'id'>): Promise<number> {
    if (this.failSave) return Promise.reject(new Error('disk full'));
    const id = 100 + this.rows.length;
    this.rows.push(Object.assign(new SplashPageEntity(), values, { id }));
    return Promise.resolve(id);
  }
  updateOwned(
    ownerId: number,
    id: number,
    change: (page: SplashPageEntity) => Partial<SplashPageEntity>,
  ): Promise<SplashPageEntity | null> {
    if (this.failSave) return Promise.reject(new Error('disk full'));
    const row = this.rows.find((r) => r.id === id && r.user_id === ownerId);
    if (!row) return Promise.resolve(null);
    const before = copy(row);
    Object.assign(row, change(copy(row)));
    return Promise.resolve(before);
  }
  linksUsing(ownerId: number, id: number): Promise<LinkAddress[]> {
    return Promise.resolve(
      this.links
        .filter((l) => l.user_id === ownerId && l.splash_page_id === id)
        .map(({ id: linkId, domain_id, url }) => ({ id: linkId, domain_id, url })),
    );
  }
  async deleteOwnedDetaching(
    ownerId: number,
    id: number,
  ): Promise<{ page: SplashPageEntity; links: LinkAddress[] } | null> {
    const links = await this.linksUsing(ownerId, id);
    const index = this.rows.findIndex((r) => r.id === id && r.user_id === ownerId);
    if (index < 0) return null;
    const [page] = this.rows.splice(index, 1);
    for (const l of this.links) if (l.splash_page_id === id) l.splash_page_id = null;
    return { page, links };
  }
}

const copy = (row: SplashPageEntity): SplashPageEntity =>
  Object.assign(new SplashPageEntity(), structuredClone(row));

/** Files in a set; an upload whose bytes are "bad" is not an image. */
class FakeFiles {
  stored = new Set<string>();
  counter = 0;
  /** Runs while a file is being written (what another request may do meanwhile). */
  whileWriting: (() => Promise<unknown>) | null = null;
  normalize(field: SplashImage, file: UploadedFile): Promise<Buffer> {
    return file.buffer.toString() === 'bad'
      ? Promise.reject(new AppError('validation_failed', `${field} is bad.`, field))
      : Promise.resolve(file.buffer);
  }
  async write(): Promise<string> {
    const meanwhile = this.whileWriting;
    this.whileWriting = null;
    await meanwhile?.();
    this.counter += 1;
    const name = `${String(this.counter).padStart(40, '0')}.png`;
    this.stored.add(name);
    return name;
  }
  remove(names: Array<string | null>): Promise<void> {
    for (const n of names) if (n) this.stored.delete(n);
    return Promise.resolve();
  }
  url(name: string | null): string | null {
    return name && `http://links.test/uploads/splash-pages/${name}`;
  }
}

const upload = (field: string, content: string): UploadedFile => ({
  field,
  originalName: `${field}.png`,
  size: content.length,
  buffer: Buffer.from(content),
});

describe(SplashPagesService.name, () => {
  let repo: FakeRepository;
  let files: FakeFiles;
  let emitted: unknown[];
  let service: SplashPagesService;
  let checks: PlanCheck[];

  beforeEach(() => {
    repo = new FakeRepository();
    files = new FakeFiles();
    emitted = [];
    const events = { emit: (name: string, e: unknown) => emitted.push([name, e]) };
    // Plans limit nothing here; the writes run at once.
    const writes = inlineWrites();
    checks = writes.checks;
    service = new SplashPagesService(
      writes.db,
      writes.limits,
      repo as unknown as SplashPagesRepository,
      files as unknown as SplashFiles,
      events as unknown as EventEmitter2,
      clock,
    );
  });

  it('creates a page in the owner workspace with the defaults', async () => {
    expect(await service.create(ACTOR, { name: 'Plain' }, {})).toEqual({ id: 100 });
    expect(checks).toEqual([{ ownerId: 2, needs: { splash_pages: 1 } }]);
    expect(repo.rows).toEqual([
      Object.assign(new SplashPageEntity(), {
        id: 100,
        user_id: 2,
        name: 'Plain',
        title: null,
        description: null,
        link_unlock_seconds: 5,
        auto_redirect: false,
        color: '#2f5bea',
        settings: {
          secondary_button_name: null,
          secondary_button_url: null,
          custom_css: null,
          custom_js: null,
          ads_header: null,
          ads_footer: null,
        },
        logo: null,
        favicon: null,
        opengraph: null,
        datetime: NOW,
        last_datetime: null,
      }),
    ]);
  });

  it('writes no file when one upload is bad, and removes written files when the insert fails', async () => {
    const bad = service.create(
      ACTOR,
      { name: 'x' },
      {
        logo: upload('logo', 'good'),
        favicon: upload('favicon', 'bad'),
      },
    );
    expect(await rejectionEntries(bad)).toEqual([
      { status: 400, title: 'favicon is bad.', field: 'favicon', code: 'validation_failed' },
    ]);
    expect(files.stored.size).toBe(0);

    repo.failSave = true;
    await expect(
      service.create(ACTOR, { name: 'x' }, { logo: upload('logo', 'good') }),
    ).rejects.toThrow('disk full');
    expect(files.stored.size).toBe(0);
  });

  it('updates sent fields, clears empty ones, swaps images and tells the edge about its links', async () => {
    await service.create(
      ACTOR,
      { name: 'Page', title: 'T', custom_js: 'old()', ads_footer: 'ad' },
      { logo: upload('logo', 'a'), favicon: upload('favicon', 'b') },
    );
    const [logo, favicon] = [repo.rows[0].logo, repo.rows[0].favicon];
    repo.links.push(
      { id: 7, user_id: 2, splash_page_id: 100, domain_id: 0, url: 'promo' },
      { id: 8, user_id: 2, splash_page_id: null, domain_id: 0, url: 'other' },
    );
    await service.update(
      ACTOR,
      100,
      { custom_js: 'new()', ads_footer: '', logo_remove: true, color: '#0a7f3f' },
      { favicon: upload('favicon', 'c') },
    );
    const row = repo.rows[0];
    expect([
      row.title,
      row.settings.custom_js,
      row.settings.ads_footer,
      row.logo,
      row.color,
    ]).toEqual(['T', 'new()', null, null, '#0a7f3f']);
    expect(row.favicon).not.toBe(favicon);
    expect([...files.stored]).toEqual([row.favicon]);
    expect(files.stored.has(logo as string)).toBe(false);
    expect(row.last_datetime).toEqual(NOW);
    expect(emitted).toEqual([[LINK_CHANGED, { linkId: 7, domainId: 0, alias: 'promo' }]]);
  });

  it('answers 404 to an update of a page deleted while its images are written, keeping no new file and no row', async () => {
    await service.create(ACTOR, { name: 'Page' }, { logo: upload('logo', 'a') });
    files.whileWriting = () => service.remove(ACTOR, 100);
    const update = service.update(
      ACTOR,
      100,
      { title: 'Back' },
      { favicon: upload('favicon', 'b') },
    );
    expect(await rejectionEntries(update)).toEqual(NOT_FOUND);
    expect(repo.rows).toEqual([]);
    expect(files.stored.size).toBe(0);
    expect(emitted).toEqual([]);
  });

  it('keeps the stored images and removes the new ones when the update fails', async () => {
    await service.create(ACTOR, { name: 'Page' }, { logo: upload('logo', 'a') });
    const logo = repo.rows[0].logo;
    repo.failSave = true;
    await expect(
      service.update(ACTOR, 100, { logo_remove: true }, { favicon: upload('favicon', 'b') }),
    ).rejects.toThrow('disk full');
    expect([...files.stored]).toEqual([logo]);
    expect(repo.rows[0].logo).toBe(logo);
  });

  it('removes the image an overlapping update stored when this one replaces it', async () => {
    await service.create(ACTOR, { name: 'Page' }, { logo: upload('logo', 'a') });
    files.whileWriting = () =>
      service.update(ACTOR, 100, { title: 'Second' }, { logo: upload('logo', 'b') });
    await service.update(ACTOR, 100, { description: 'First' }, { logo: upload('logo', 'c') });
    const row = repo.rows[0];
    expect([row.title, row.description]).toEqual(['Second', 'First']);
    expect([...files.stored]).toEqual([row.logo]);
  });

  it('deletes a page, detaching its links, invalidating them and removing its files', async () => {
    await service.create(ACTOR, { name: 'Page' }, { opengraph: upload('opengraph', 'a') });
    repo.links.push({ id: 7, user_id: 2, splash_page_id: 100, domain_id: 3, url: 'promo' });
    expect(await service.remove(ACTOR, 100)).toEqual({ id: 100 });
    expect(repo.rows).toEqual([]);
    expect(repo.links[0].splash_page_id).toBeNull();
    expect(files.stored.size).toBe(0);
    expect(emitted).toEqual([[LINK_CHANGED, { linkId: 7, domainId: 3, alias: 'promo' }]]);
  });

  it('answers 404 for a page of another workspace and leaves it alone', async () => {
    repo.rows.push(
      Object.assign(new SplashPageEntity(), { id: 5, user_id: 1, name: 'Private', settings: {} }),
    );
    expect(await rejectionEntries(service.get(ACTOR, 5))).toEqual(NOT_FOUND);
    expect(await rejectionEntries(service.update(ACTOR, 5, { name: 'x' }, {}))).toEqual(NOT_FOUND);
    expect(await rejectionEntries(service.remove(ACTOR, 5))).toEqual(NOT_FOUND);
    expect(repo.rows[0].name).toBe('Private');
  });
});
