import { Actor } from '@app/auth';
import { ErrorCode, ErrorEntry, UploadedDiskFile } from '@app/common';
import {
  defaultLinkSettings,
  DomainEntity,
  DomainsRepository,
  LinkEntity,
  LinkSettings,
  LinksRepository,
  ProjectsRepository,
  SplashPagesRepository,
} from '@app/database';
import { rejectionEntries } from '@app/testing/app-error-entries';
import { CreateLinkDto } from './dto/create-link.dto';
import { UpdateLinkDto } from './dto/update-link.dto';
import { LinkChecks } from './link-checks.service';
import { LinkInputService } from './link-input.service';

/** A team member acting in the owner's workspace: ownerId differs from userId on purpose. */
const ACTOR: Actor = { userId: 1, apiKeyId: 9, isAdmin: false, ownerId: 2 };
const APP_URL = 'http://localhost:3000';
const DESTINATION = 'https://example.com/page';

/** The aliases in use, by domain, and the ids of the links that hold them. */
class FakeLinks implements Pick<LinksRepository, 'aliasTaken'> {
  readonly aliases: Array<{ id: number; domainId: number; alias: string }> = [];

  aliasTaken(domainId: number, alias: string, exceptId?: number): Promise<boolean> {
    const found = this.aliases.find((a) => a.domainId === domainId && a.alias === alias);
    return Promise.resolve(found !== undefined && found.id !== exceptId);
  }
}

class FakeDomains implements Pick<DomainsRepository, 'findOwned' | 'findEnabledByHost'> {
  readonly rows: DomainEntity[] = [];

  findOwned(ownerId: number, id: number): Promise<DomainEntity | null> {
    return Promise.resolve(this.rows.find((d) => d.id === id && d.user_id === ownerId) ?? null);
  }

  findEnabledByHost(host: string): Promise<DomainEntity | null> {
    return Promise.resolve(this.rows.find((d) => d.host === host && d.is_enabled) ?? null);
  }
}

/** Projects and splash pages: only whether the owner has one with the id matters here. */
class FakeOwned<T> {
  constructor(private readonly owned: ReadonlyArray<{ id: number; user_id: number }>) {}

  findOwned(ownerId: number, id: number): Promise<T | null> {
    const row = this.owned.find((r) => r.id === id && r.user_id === ownerId);
    return Promise.resolve(row ? (row as T) : null);
  }
}

function domain(values: Partial<DomainEntity>): DomainEntity {
  return Object.assign(new DomainEntity(), { scheme: 'https://', is_enabled: true }, values);
}

function link(values: Partial<LinkEntity>, settings: Partial<LinkSettings> = {}): LinkEntity {
  return Object.assign(
    new LinkEntity(),
    {
      id: 40,
      user_id: 2,
      project_id: null,
      domain_id: 0,
      splash_page_id: null,
      type: 'link',
      url: 'spring-sale',
      location_url: DESTINATION,
      password_hash: null,
      start_date: null,
      end_date: null,
    },
    values,
    { settings: JSON.stringify({ ...defaultLinkSettings(), ...settings }) },
  );
}

function upload(originalName: string): UploadedDiskFile {
  return { field: 'file', originalName, size: 10, path: '/tmp/upload' };
}

function problem(title: string, field?: string, code: ErrorCode = 'validation_failed'): ErrorEntry {
  return { status: 400, title, ...(field !== undefined ? { field } : {}), code };
}

const selfLink = (field: string, host: string): ErrorEntry =>
  problem(`${field} must not point back at this link service (${host}).`, field);

describe(LinkInputService.name, () => {
  let links: FakeLinks;
  let domains: FakeDomains;
  let input: LinkInputService;

  beforeEach(() => {
    links = new FakeLinks();
    links.aliases.push({ id: 40, domainId: 0, alias: 'spring-sale' });
    links.aliases.push({ id: 41, domainId: 5, alias: 'taken' });
    domains = new FakeDomains();
    domains.rows.push(
      domain({ id: 5, user_id: 2, host: 'go.example.com' }),
      domain({ id: 6, user_id: 3, host: 'other.example.com' }),
      domain({ id: 7, user_id: 2, host: 'off.example.com', is_enabled: false }),
    );
    const checks = new LinkChecks(
      links as unknown as LinksRepository,
      domains as unknown as DomainsRepository,
      new FakeOwned([{ id: 3, user_id: 2 }]) as unknown as ProjectsRepository,
      new FakeOwned([{ id: 4, user_id: 2 }]) as unknown as SplashPagesRepository,
      { appUrl: APP_URL },
    );
    input = new LinkInputService(checks);
  });

  const create = (dto: CreateLinkDto, file?: UploadedDiskFile) =>
    input.validateCreate(ACTOR, dto, file);
  const createErrors = (dto: CreateLinkDto, file?: UploadedDiskFile) =>
    rejectionEntries(create(dto, file));
  const update = (row: LinkEntity, dto: UpdateLinkDto, file?: UploadedDiskFile) =>
    input.validateUpdate(ACTOR, row, dto, file);
  const updateErrors = (row: LinkEntity, dto: UpdateLinkDto, file?: UploadedDiskFile) =>
    rejectionEntries(update(row, dto, file));

  describe('validateCreate', () => {
    it('reads a link body into the values of the new row', async () => {
      expect(
        await create({
          location_url: DESTINATION,
          url: 'summer',
          domain_id: 5,
          project_id: 3,
          splash_page_id: 4,
          http_status_code: 301,
          clicks_limit: 0,
          utm_source: 'mail',
          utm_medium: '',
        }),
      ).toEqual({
        type: 'link',
        domainId: 5,
        projectId: 3,
        splashPageId: 4,
        alias: 'summer',
        location: DESTINATION,
        settings: {
          ...defaultLinkSettings(),
          http_status_code: 301,
          utm: { source: 'mail', medium: null, campaign: null },
        },
        passwordHash: null,
        window: { start: null, end: null },
      });
    });

    it('picks a free random alias, reads 0 as no project, and hashes the password', async () => {
      const read = await create({
        location_url: DESTINATION,
        url: '',
        project_id: 0,
        password: 'secret',
      });
      expect(read).toMatchObject({ domainId: 0, projectId: null, splashPageId: null });
      expect(read.alias).toMatch(/^[a-z0-9]{7}$/);
      expect(read.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    });

    it('rejects a reserved alias', async () => {
      expect(await createErrors({ location_url: DESTINATION, url: 'api' })).toEqual([
        problem(
          'The alias "api" is reserved by the service; choose another.',
          'url',
          'alias_reserved',
        ),
      ]);
    });

    it('rejects an alias taken on the same domain, and allows it on another', async () => {
      expect(await createErrors({ location_url: DESTINATION, url: 'taken', domain_id: 5 })).toEqual(
        [problem('The alias "taken" is already taken on this domain.', 'url', 'alias_taken')],
      );
      expect(await create({ location_url: DESTINATION, url: 'taken' })).toMatchObject({
        alias: 'taken',
        domainId: 0,
      });
    });

    it("rejects another owner's domain, project and splash page, in that order", async () => {
      expect(
        await createErrors({
          location_url: DESTINATION,
          domain_id: 6,
          project_id: 30,
          splash_page_id: 40,
        }),
      ).toEqual([
        problem(
          'domain_id is not one of your domains (0 = the main domain).',
          'domain_id',
          'invalid_reference',
        ),
        problem('project_id is not one of your projects.', 'project_id', 'invalid_reference'),
        problem(
          'splash_page_id is not one of your splash pages.',
          'splash_page_id',
          'invalid_reference',
        ),
      ]);
    });

    it('rejects destinations on the service itself and on its enabled domains', async () => {
      expect(await createErrors({ location_url: 'http://127.0.0.1:3000/x' })).toEqual([
        selfLink('location_url', '127.0.0.1'),
      ]);
      expect(
        await createErrors({
          location_url: DESTINATION,
          expiration_url: 'https://go.example.com./',
        }),
      ).toEqual([selfLink('expiration_url', 'go.example.com')]);
      // Another port of the local machine is another server; a disabled domain redirects nothing.
      expect(
        await create({
          location_url: 'http://localhost:8080/',
          expiration_url: 'https://off.example.com/',
        }),
      ).toMatchObject({ location: 'http://localhost:8080/' });
    });

    describe('walink', () => {
      it('reads the chat from phone_number and message', async () => {
        const read = await create({
          type: 'walink',
          phone_number: '15551234567',
          message: 'Hi there',
        });
        expect(read.location).toBe('https://wa.me/15551234567?text=Hi%20there');
        expect(read.settings).toMatchObject({ phone_number: '15551234567', message: 'Hi there' });
      });

      it('reads the chat back from a wa.me location_url', async () => {
        const read = await create({
          type: 'walink',
          location_url: 'https://api.whatsapp.com/send?phone=15551234567&text=Hello',
        });
        expect(read.location).toBe('https://wa.me/15551234567?text=Hello');
        expect(read.settings).toMatchObject({ phone_number: '15551234567', message: 'Hello' });
      });

      it('rejects a location_url that is not a chat address, and a missing number', async () => {
        expect(await createErrors({ type: 'walink', location_url: DESTINATION })).toEqual([
          problem(
            'location_url of a walink must be https://wa.me/<number>?text=<message>.',
            'location_url',
          ),
        ]);
        expect(await createErrors({ type: 'walink', message: 'Hi' })).toEqual([
          problem('phone_number is required.', 'phone_number'),
        ]);
      });
    });

    describe('file', () => {
      it('is required for a static link and must be a page or an archive', async () => {
        expect(await createErrors({ type: 'static', name: 'Docs' })).toEqual([
          problem('file is required.', 'file'),
        ]);
        expect(await createErrors({ type: 'static', name: 'Docs' }, upload('site.tar'))).toEqual([
          problem('file must be a .html page or a .zip archive.', 'file'),
        ]);
        const read = await create({ type: 'static', name: 'Docs' }, upload('site.zip'));
        expect(read).toMatchObject({ type: 'static', location: null });
        expect(read.settings.name).toBe('Docs');
      });

      it('is refused for other types', async () => {
        expect(await createErrors({ location_url: DESTINATION }, upload('a.html'))).toEqual([
          problem('file is only for links of type static.', 'file'),
        ]);
      });
    });

    describe('targeting', () => {
      it('reads the rules of the targeting type', async () => {
        const read = await create({
          location_url: DESTINATION,
          targeting_type: 'country_code',
          targeting_country_code_key: ['us'],
          targeting_country_code_value: ['https://us.example.com/'],
        });
        expect(read.settings).toMatchObject({
          targeting_type: 'country_code',
          targeting: [{ key: 'US', value: 'https://us.example.com/' }],
        });
      });

      it('reports bad rules, then rules that point back at the service', async () => {
        expect(
          await createErrors({
            location_url: DESTINATION,
            targeting_type: 'device_type',
            targeting_device_type_key: ['watch', 'mobile'],
            targeting_device_type_value: [DESTINATION, 'https://go.example.com/x'],
          }),
        ).toEqual([
          problem(
            'targeting_device_type_key[0]: a device type, one of desktop, mobile, tablet.',
            'targeting_device_type_key',
          ),
          selfLink('targeting_device_type_value', 'go.example.com'),
        ]);
      });
    });

    describe('schedule', () => {
      it('reads the window of a scheduled link', async () => {
        expect(
          await create({
            location_url: DESTINATION,
            schedule: true,
            start_date: '2026-12-01 08:00:00',
            end_date: '',
          }),
        ).toMatchObject({ window: { start: new Date('2026-12-01T08:00:00Z'), end: null } });
      });

      it('needs a date, and an end after the start', async () => {
        expect(await createErrors({ location_url: DESTINATION, schedule: true })).toEqual([
          problem('schedule needs start_date, end_date or both.', 'start_date'),
        ]);
        expect(
          await createErrors({
            location_url: DESTINATION,
            schedule: true,
            start_date: '2026-12-01 08:00:00',
            end_date: '2026-12-01 08:00:00',
          }),
        ).toEqual([problem('end_date must be after start_date.', 'end_date')]);
      });

      it('rejects a date that does not exist, even without schedule', async () => {
        expect(
          await createErrors({ location_url: DESTINATION, start_date: '2026-02-30 10:00:00' }),
        ).toEqual([problem('start_date is not a real date and time (Y-m-d H:i:s).', 'start_date')]);
      });

      it('keeps no window when the link is not scheduled', async () => {
        expect(
          await create({ location_url: DESTINATION, end_date: '2026-12-01 08:00:00' }),
        ).toMatchObject({ window: { start: null, end: null } });
      });
    });

    it('collects every problem of a body, in the order of its fields', async () => {
      expect(
        await createErrors(
          {
            location_url: 'http://localhost:3000/loop',
            url: 'taken',
            domain_id: 5,
            project_id: 30,
            expiration_url: 'https://go.example.com/',
            targeting_type: 'rotation',
            targeting_rotation_key: ['1'],
            targeting_rotation_value: [],
            schedule: true,
            start_date: 'tomorrow',
          },
          upload('a.html'),
        ),
      ).toEqual([
        problem('file is only for links of type static.', 'file'),
        problem('project_id is not one of your projects.', 'project_id', 'invalid_reference'),
        selfLink('location_url', 'localhost'),
        selfLink('expiration_url', 'go.example.com'),
        problem(
          'targeting_rotation_key and targeting_rotation_value must have the same number of entries (1 and 0).',
          'targeting_rotation_value',
        ),
        problem('start_date is not a real date and time (Y-m-d H:i:s).', 'start_date'),
        problem('schedule needs start_date, end_date or both.', 'start_date'),
        problem('The alias "taken" is already taken on this domain.', 'url', 'alias_taken'),
      ]);
    });
  });

  describe('validateUpdate', () => {
    it('writes only the columns that change', async () => {
      expect(await update(link({}), { location_url: 'https://example.org/', url: '' })).toEqual({
        changes: {
          location_url: 'https://example.org/',
          settings: JSON.stringify(defaultLinkSettings()),
        },
        settings: defaultLinkSettings(),
        domainId: 0,
        alias: 'spring-sale',
      });
    });

    it('writes references, alias, domain, flags and the password when the body has them', async () => {
      const planned = await update(link({ project_id: 3, splash_page_id: 4 }), {
        url: 'autumn',
        domain_id: 5,
        project_id: 0,
        splash_page_id: 4,
        is_enabled: false,
        password: 'secret',
      });
      expect(planned).toMatchObject({ domainId: 5, alias: 'autumn' });
      expect(planned.changes).toEqual({
        project_id: null,
        splash_page_id: 4,
        url: 'autumn',
        domain_id: 5,
        settings: JSON.stringify(defaultLinkSettings()),
        is_enabled: false,
        password_hash: expect.stringMatching(/^scrypt\$/) as unknown,
      });
      expect((await update(link({}), { password: '' })).changes.password_hash).toBeNull();
    });

    it('checks the alias again when the link moves to a domain where it is taken', async () => {
      expect(await updateErrors(link({ url: 'taken' }), { domain_id: 5 })).toEqual([
        problem('The alias "taken" is already taken on this domain.', 'url', 'alias_taken'),
      ]);
      // The link's own alias is not "taken" by itself.
      expect(await update(link({}), { url: 'spring-sale' })).toMatchObject({
        alias: 'spring-sale',
      });
    });

    describe('walink', () => {
      const chat = link(
        { type: 'walink', location_url: 'https://wa.me/15551234567?text=Hi' },
        { phone_number: '15551234567', message: 'Hi' },
      );

      it('keeps the number when only the message changes', async () => {
        const planned = await update(chat, { message: 'Bye' });
        expect(planned.changes.location_url).toBe('https://wa.me/15551234567?text=Bye');
        expect(planned.settings).toMatchObject({ phone_number: '15551234567', message: 'Bye' });
      });

      it('takes number and message from a new wa.me location_url', async () => {
        const planned = await update(chat, { location_url: 'https://wa.me/4915112345678' });
        expect(planned.changes.location_url).toBe('https://wa.me/4915112345678');
        expect(planned.settings).toMatchObject({ phone_number: '4915112345678', message: null });
      });

      it('rejects a location_url that is not a chat address', async () => {
        expect(await updateErrors(chat, { location_url: 'https://wa.me/12' })).toEqual([
          problem(
            'location_url of a walink must be https://wa.me/<number>?text=<message>.',
            'location_url',
          ),
        ]);
      });

      it('changes nothing of the chat when the body has none of its fields', async () => {
        expect((await update(chat, { is_enabled: true })).changes).not.toHaveProperty(
          'location_url',
        );
      });
    });

    it('checks a new schedule against the dates stored on the row', async () => {
      const row = link({ start_date: new Date('2026-12-10T00:00:00Z') });
      expect(await updateErrors(row, { schedule: true, end_date: '2026-12-01 00:00:00' })).toEqual([
        problem('end_date must be after start_date.', 'end_date'),
      ]);
      expect((await update(row, { schedule: true })).changes).toMatchObject({
        settings: JSON.stringify({ ...defaultLinkSettings(), schedule: true }),
      });
      // A window ends with the schedule.
      expect((await update(row, { is_enabled: true })).changes).toMatchObject({ start_date: null });
    });

    it('takes an optional new file for a static link and refuses one for others', async () => {
      const site = link({ type: 'static', location_url: null }, { name: 'Docs' });
      expect((await update(site, { name: 'Guide' }, upload('index.htm'))).settings.name).toBe(
        'Guide',
      );
      expect(await updateErrors(link({}), {}, upload('site.zip'))).toEqual([
        problem('file is only for links of type static.', 'file'),
      ]);
    });

    it('rejects a new destination on the service itself', async () => {
      expect(await updateErrors(link({}), { location_url: 'https://GO.example.com/x' })).toEqual([
        selfLink('location_url', 'go.example.com'),
      ]);
    });
  });
});
