import { ConfigError, loadConfig } from './load-config';
import { describeStartupFailure, maskUrl, reportStartupFailure } from './startup-failure';

/** An error as node's fs, net and pg raise them. */
const systemError = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

describe(describeStartupFailure.name, () => {
  const sqlite = loadConfig({ DATA_DIR: '/srv/linkdock', PORT: '3000' });
  const postgres = loadConfig({
    DATABASE_URL: 'postgres://linkdock:s3cret@db.internal:5432/linkdock',
    SECRETS_KEY: 'a'.repeat(64),
    METRICS_PORT: '9100',
  });

  it('names DATABASE_URL, password masked, when PostgreSQL cannot be reached', () => {
    const refused = systemError('connect ECONNREFUSED 10.0.0.5:5432', {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    expect(describeStartupFailure(refused, postgres)).toBe(
      'DATABASE_URL: cannot connect to postgres://linkdock:***@db.internal:5432/linkdock (ECONNREFUSED)',
    );
  });

  it('names DATABASE_URL with PostgreSQL’s own reason when it refuses the login', () => {
    const refused = systemError('password authentication failed for user "linkdock"', {
      code: '28P01',
    });
    expect(describeStartupFailure(refused, postgres)).toBe(
      'DATABASE_URL: cannot connect to postgres://linkdock:***@db.internal:5432/linkdock (password authentication failed for user "linkdock")',
    );
  });

  it('names DATA_DIR when it is a file, or a part of its path is', () => {
    const exists = systemError("EEXIST: file already exists, mkdir '/srv/linkdock'", {
      code: 'EEXIST',
      path: '/srv/linkdock',
    });
    const notDir = systemError("ENOTDIR: not a directory, open '/srv/linkdock/secrets.key'", {
      code: 'ENOTDIR',
      path: '/srv/linkdock/secrets.key',
    });
    expect([
      describeStartupFailure(exists, sqlite),
      describeStartupFailure(notDir, sqlite),
    ]).toEqual([
      'DATA_DIR: cannot use /srv/linkdock (EEXIST: it is a file, not a directory)',
      'DATA_DIR: cannot use /srv/linkdock/secrets.key (ENOTDIR: a part of the path is a file, not a directory)',
    ]);
  });

  it('names DATABASE_URL for a SQLite file it puts outside DATA_DIR', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite:/var/db/linkdock.sqlite' });
    const readOnly = systemError("EROFS: read-only file system, mkdir '/var/db'", {
      code: 'EROFS',
      path: '/var/db',
    });
    expect(describeStartupFailure(readOnly, config)).toBe(
      'DATABASE_URL: cannot use /var/db (EROFS: the file system is read-only)',
    );
  });

  it('names PORT, or METRICS_PORT, when the port is taken', () => {
    const inUse = (port: number) =>
      systemError(`listen EADDRINUSE: address already in use 0.0.0.0:${port}`, {
        code: 'EADDRINUSE',
        syscall: 'listen',
        address: '0.0.0.0',
        port,
      });
    expect([
      describeStartupFailure(inUse(3000), sqlite),
      describeStartupFailure(inUse(9100), postgres),
    ]).toEqual([
      'PORT 3000 is already in use on 0.0.0.0',
      'METRICS_PORT 9100 is already in use on 0.0.0.0',
    ]);
  });

  it('keeps the message of a configuration error, and the first line of anything else', () => {
    let configError: unknown;
    try {
      loadConfig({ PORT: 'eighty' });
    } catch (error) {
      configError = error;
    }
    const other = systemError("EACCES: permission denied, open '/etc/shadow'", {
      code: 'EACCES',
      path: '/etc/shadow',
    });
    expect([
      describeStartupFailure(configError),
      describeStartupFailure(other, sqlite),
      describeStartupFailure(new Error('first\nsecond')),
    ]).toEqual([
      'Invalid configuration:\n  - PORT must be a whole number from 1 to 65535 (got "eighty")',
      "EACCES: permission denied, open '/etc/shadow'",
      'first',
    ]);
  });
});

describe(maskUrl.name, () => {
  it('masks the password and leaves a URL without one as it is', () => {
    expect([
      maskUrl('redis://:pw@cache:6379/0'),
      maskUrl('postgres://u@db/x'),
      maskUrl('postgres://u:p%40ss@db/x'),
    ]).toEqual(['redis://:***@cache:6379/0', 'postgres://u@db/x', 'postgres://u:***@db/x']);
  });
});

describe(reportStartupFailure.name, () => {
  let written: string;
  let write: jest.SpyInstance;
  beforeEach(() => {
    written = '';
    write = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => ((written += String(chunk)), true));
  });
  afterEach(() => write.mockRestore());

  const failure = new Error('connect ECONNREFUSED 127.0.0.1:1');
  Object.assign(failure, { code: 'ECONNREFUSED', syscall: 'connect' });
  const config = (logLevel: string) =>
    loadConfig({
      DATABASE_URL: 'postgres://u:pw@127.0.0.1:1/x',
      LOG_LEVEL: logLevel,
      SECRETS_KEY: 'a'.repeat(64),
    });

  it('writes one line, without the stack', () => {
    reportStartupFailure('Linkdock', failure, config('info'));
    expect(written).toBe(
      'Linkdock cannot start: DATABASE_URL: cannot connect to postgres://u:***@127.0.0.1:1/x (ECONNREFUSED)\n',
    );
  });

  it('writes a configuration error as it is', () => {
    reportStartupFailure('Linkdock', new ConfigError(['PORT must be a whole number']));
    expect(written).toBe('Invalid configuration:\n  - PORT must be a whole number\n');
  });

  it('adds the stack with LOG_LEVEL debug', () => {
    reportStartupFailure('Linkdock worker', failure, config('debug'));
    expect(written).toBe(
      `Linkdock worker cannot start: DATABASE_URL: cannot connect to postgres://u:***@127.0.0.1:1/x (ECONNREFUSED)\n${failure.stack}\n`,
    );
  });
});
