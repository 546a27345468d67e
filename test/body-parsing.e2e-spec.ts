import { Body, Controller, Module, Post } from '@nestjs/common';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IntRange, IsFormBoolean, JSON_BODY_LIMITS } from '@app/common';
import { createTestApp, TestApp, TestUser } from '@app/testing';

class ProbeDto {
  @IsFormBoolean()
  flag!: boolean;

  @IntRange(1, 100)
  size!: number;

  @IsString({ each: true })
  tags!: string[];

  @IsOptional()
  @IsIn(['read', 'create', 'update', 'delete'], { each: true })
  access?: string[];

  @IsOptional()
  group?: Record<string, string>;
}

@Controller('probe')
class ProbeController {
  @Post()
  echo(@Body() dto: ProbeDto) {
    return dto;
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** One DTO, three encodings: every later resource relies on them parsing alike. */
describe('Request bodies', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  const expected = {
    flag: false,
    size: 12,
    tags: ['a', 'b'],
    access: ['read', 'create'],
    group: { read: '1', update: '0' },
  };

  it('parses multipart/form-data with name[] arrays and name[key] groups', async () => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .field('flag', '0')
      .field('size', '12')
      .field('tags[]', 'a')
      .field('tags[]', 'b')
      .field('access[]', 'read')
      .field('access[]', 'create')
      .field('group[read]', '1')
      .field('group[update]', '0')
      .field('ignored', 'x');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: expected });
  });

  it('parses application/x-www-form-urlencoded the same way', async () => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .type('form')
      .send(
        'flag=false&size=12&tags[]=a&tags[]=b&access[]=read&access[]=create&group[read]=1&group[update]=0&ignored=x',
      );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: expected });
  });

  it('parses JSON the same way, with real booleans and numbers', async () => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .send({ ...expected, flag: false, size: 12, ignored: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: expected });
  });

  it.each([
    ['flag', { flag: 'yes' }, 'flag must be 0 or 1.'],
    ['size', { size: '12.5' }, 'size must be a whole number from 1 to 100.'],
    ['size', { size: '0' }, 'size must be a whole number from 1 to 100.'],
    [
      'access',
      { access: ['read', 'own'] },
      'each value in access must be one of the following values: read, create, update, delete.',
    ],
  ])('refuses a bad %s with a 400 naming it', async (field, patch, title) => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .send({ ...expected, ...patch });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ status: 400, title, field, code: 'validation_failed' }],
    });
  });

  it('reads JSON null as an empty form value: refused where a value is needed', async () => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .send({ ...expected, size: null, tags: [null, 'b'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'size must be a whole number from 1 to 100.',
          field: 'size',
          code: 'validation_failed',
        },
      ],
    });
  });

  it('refuses a lone surrogate anywhere in a JSON body, naming the field', async () => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send('{"flag":1,"size":1,"tags":["ok"],"group":{"read":"\\ud800x"}}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'group[read] is not well-formed Unicode text (it has a lone surrogate).',
          field: 'group[read]',
          code: 'validation_failed',
        },
      ],
    });
  });

  it.each([
    [
      'a flat object of 80,000 keys',
      () =>
        JSON.stringify(
          Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [i.toString(36), 1])),
        ),
      `The request body has more than ${JSON_BODY_LIMITS.maxKeys} fields.`,
    ],
    [
      'an array nested 5,000 deep',
      () => `${'['.repeat(5000)}1${']'.repeat(5000)}`,
      `The request body nests deeper than ${JSON_BODY_LIMITS.maxDepth} levels.`,
    ],
  ])('refuses %s with a 413 before any transformation', async (_name, body, title) => {
    const res = await t.http
      .post('/v1/probe')
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/json')
      .send(body());
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ errors: [{ status: 413, title, code: 'payload_too_large' }] });
  });

  it('authenticates before reading a multipart body', async () => {
    const res = await t.http
      .post('/v1/probe')
      .field('flag', '1')
      .attach('f', Buffer.alloc(1024), 'f.bin');
    expect(res.status).toBe(401);
  });
});
