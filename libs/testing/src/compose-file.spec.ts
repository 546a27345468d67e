import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  interpolate,
  readComposeServices,
  readDockerfileRuntime,
  serviceEnvironment,
} from './compose-file';

describe(interpolate.name, () => {
  const env = { SET: 'value', EMPTY: '' };

  it('substitutes the forms compose files use, as docker compose does', () => {
    expect(
      [
        '${SET}',
        '${UNSET}',
        'a-${SET}-b',
        '${SET:-d}',
        '${EMPTY:-d}',
        '${UNSET:-d}',
        '${UNSET:-}',
        '${EMPTY-d}',
        '${UNSET-d}',
        '${SET:?m}',
        '${EMPTY?m}',
        'http://${SET}:${UNSET:-x}@host',
        'cost: $$5',
      ].map((value) => interpolate(value, env)),
    ).toEqual([
      'value',
      '',
      'a-value-b',
      'value',
      'd',
      'd',
      '',
      '',
      'd',
      'value',
      '',
      'http://value:x@host',
      'cost: $5',
    ]);
  });

  it('fails with the message of ${VAR:?message} when VAR is unset or empty', () => {
    expect(() => interpolate('${UNSET:?Create .env first}', env)).toThrow(
      'required variable UNSET is missing a value: Create .env first',
    );
    expect(() => interpolate('${EMPTY:?Set it}', env)).toThrow(
      'required variable EMPTY is missing a value: Set it',
    );
    expect(() => interpolate('${UNSET?Set it}', env)).toThrow('required variable UNSET');
  });

  it('refuses the forms it does not implement instead of guessing', () => {
    for (const value of ['$SET', '${SET:+x}', '${UNSET:-${SET}}', '${}', 'trailing $']) {
      expect(() => interpolate(value, env)).toThrow(/^Unsupported interpolation/);
    }
  });
});

describe('compose and Dockerfile reading', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves merge keys (explicit keys win) and interpolates services', () => {
    const file = join(dir, 'compose.yml');
    writeFileSync(
      file,
      [
        'x-base: &base',
        '  A: ${A:-a}',
        '  B: base',
        'x-env: &env',
        '  <<: *base',
        '  C: "3"',
        'services:',
        '  one:',
        '    image: one:1.0',
        '    environment:',
        '      B: own',
        '      <<: *env',
        '      PASS:',
        '  two:',
        '    environment: ["X=1=2", "Y="]',
      ].join('\n'),
    );
    const services = readComposeServices(file, { A: 'from-env' });
    expect(services).toEqual({
      one: { image: 'one:1.0', environment: { A: 'from-env', B: 'own', C: '3', PASS: null } },
      two: { environment: ['X=1=2', 'Y='] },
    });
    expect(serviceEnvironment(services.one)).toEqual({ A: 'from-env', B: 'own', C: '3' });
    expect(serviceEnvironment(services.two)).toEqual({ X: '1=2', Y: '' });
  });

  it("reads the last stage's ENV and CMD of a Dockerfile", () => {
    const file = join(dir, 'Dockerfile');
    writeFileSync(
      file,
      [
        '# syntax=docker/dockerfile:1',
        'FROM node AS build',
        'ENV BUILD_ONLY=1',
        'CMD ["build"]',
        'FROM node AS runtime',
        'ENV A=1 \\',
        '    # a comment inside the instruction',
        '    B="two words"',
        'ENV C=3',
        'HEALTHCHECK --interval=30s \\',
        '  CMD ["node", "-e", "health"]',
        'CMD ["node", "dist/main.js"]',
      ].join('\n'),
    );
    expect(readDockerfileRuntime(file)).toEqual({
      env: { A: '1', B: 'two words', C: '3' },
      cmd: ['node', 'dist/main.js'],
    });
  });

  it('refuses ENV forms it does not read', () => {
    for (const env of ['ENV A 1', 'ENV A=$B', 'ENV A=1 junk']) {
      const file = join(dir, 'Dockerfile');
      writeFileSync(file, `FROM node\n${env}\n`);
      expect(() => readDockerfileRuntime(file)).toThrow(`Unsupported ENV instruction: ${env}`);
    }
  });
});
