import { ConfigError, loadConfig } from './load-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('storage configuration', () => {
  it('keeps files on the local disk by default', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local', s3: null, publicUrl: null });
  });

  it('reads every S3 variable', () => {
    expect(
      loadConfig({
        STORAGE_DRIVER: 'S3',
        S3_BUCKET: 'linkdock-files',
        S3_REGION: 'eu-west-3',
        S3_ENDPOINT: 'http://minio:9000/',
        S3_FORCE_PATH_STYLE: 'false',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        STORAGE_PUBLIC_URL: 'https://cdn.example.com/files/',
      }).storage,
    ).toEqual({
      driver: 's3',
      s3: {
        bucket: 'linkdock-files',
        region: 'eu-west-3',
        endpoint: 'http://minio:9000',
        forcePathStyle: false,
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      },
      publicUrl: 'https://cdn.example.com/files',
    });
  });

  it('defaults the region, path style by endpoint, and the SDK credential chain', () => {
    expect(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'files' }).storage.s3).toEqual({
      bucket: 'files',
      region: 'us-east-1',
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
    });
    expect(
      loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:9000' })
        .storage.s3?.forcePathStyle,
    ).toBe(true);
  });

  it('reads the bucket while files are still local, for storage:migrate --to s3', () => {
    expect(loadConfig({ S3_BUCKET: 'files' }).storage).toEqual({
      driver: 'local',
      s3: {
        bucket: 'files',
        region: 'us-east-1',
        endpoint: null,
        forcePathStyle: false,
        credentials: null,
      },
      publicUrl: null,
    });
  });

  it('names every bad storage variable', () => {
    expect(problemsOf({ STORAGE_DRIVER: 'ftp' })).toEqual([
      'STORAGE_DRIVER must be one of local, s3 (got "ftp")',
    ]);
    expect(problemsOf({ STORAGE_DRIVER: 's3' })).toEqual([
      'S3_BUCKET is required when STORAGE_DRIVER=s3',
    ]);
    expect(
      problemsOf({
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'Bad_Bucket',
        S3_REGION: 'EU WEST',
        S3_ENDPOINT: 'ftp://x',
        S3_FORCE_PATH_STYLE: 'maybe',
        S3_ACCESS_KEY_ID: 'key',
        STORAGE_PUBLIC_URL: 'https://u:p@cdn.example.com',
      }),
    ).toEqual([
      'STORAGE_PUBLIC_URL must not carry credentials, a query or a fragment (got "https://u:p@cdn.example.com")',
      'S3_BUCKET must be a valid bucket name (got "Bad_Bucket")',
      'S3_REGION must be a region name such as eu-west-1 (got "EU WEST")',
      'S3_ENDPOINT must be an http(s) URL (got "ftp://x")',
      'S3_FORCE_PATH_STYLE must be true or false (got "maybe")',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither)',
    ]);
  });

  it('reads the metrics token and port', () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null });
    expect(
      loadConfig({ METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' }).metrics,
    ).toEqual({ token: 'a-long-enough-token', port: 9464 });
    expect(problemsOf({ METRICS_TOKEN: 'short', METRICS_PORT: '3000' })).toEqual([
      'METRICS_TOKEN must be 16 to 256 printable characters without spaces',
      'METRICS_PORT must differ from PORT (both 3000)',
    ]);
  });
});
