import { hasUrlCredentials, normalizeHttpUrl } from '@app/common/validation/http-url';

/** Where stored files (static sites, QR images, uploads) live. */
export const STORAGE_DRIVERS = ['local', 's3'] as const;
export type StorageDriver = (typeof STORAGE_DRIVERS)[number];

export interface S3Config {
  bucket: string;
  /** S3_REGION; `us-east-1` when unset (MinIO and s3rver accept any region). */
  region: string;
  /** S3_ENDPOINT: an S3-compatible server (MinIO, s3rver...), or null for AWS. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Both set, or null to use the SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export interface StorageConfig {
  driver: StorageDriver;
  /** Set when STORAGE_DRIVER=s3, or when S3_BUCKET is set (for `storage:migrate --to s3`). */
  s3: S3Config | null;
  /** STORAGE_PUBLIC_URL without a trailing slash: uploads are linked from there, or null (the app). */
  publicUrl: string | null;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{2,32}$/;

export function parseStorageConfig(
  get: (name: string) => string | undefined,
  problems: string[],
): StorageConfig {
  const rawDriver = get('STORAGE_DRIVER') ?? 'local';
  const driver = STORAGE_DRIVERS.find((d) => d === rawDriver.toLowerCase());
  if (driver === undefined) {
    problems.push(
      `STORAGE_DRIVER must be one of ${STORAGE_DRIVERS.join(', ')} (got "${rawDriver}")`,
    );
  }
  const publicUrl = parseHttpUrl(get('STORAGE_PUBLIC_URL'), 'STORAGE_PUBLIC_URL', problems);
  const bucket = get('S3_BUCKET');
  if (driver !== 's3' && bucket === undefined) {
    return { driver: driver ?? 'local', s3: null, publicUrl };
  }
  if (bucket === undefined) {
    problems.push('S3_BUCKET is required when STORAGE_DRIVER=s3');
  } else if (!BUCKET.test(bucket)) {
    problems.push(`S3_BUCKET must be a valid bucket name (got "${bucket}")`);
  }
  const region = get('S3_REGION') ?? 'us-east-1';
  if (!REGION.test(region)) {
    problems.push(`S3_REGION must be a region name such as eu-west-1 (got "${region}")`);
  }
  const endpoint = parseHttpUrl(get('S3_ENDPOINT'), 'S3_ENDPOINT', problems);
  const rawPathStyle = get('S3_FORCE_PATH_STYLE');
  let forcePathStyle = endpoint !== null;
  if (rawPathStyle !== undefined) {
    const flag = parseFlag(rawPathStyle);
    if (flag === null) {
      problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${rawPathStyle}")`);
    } else {
      forcePathStyle = flag;
    }
  }
  const accessKeyId = get('S3_ACCESS_KEY_ID');
  const secretAccessKey = get('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither)');
  }
  const credentials =
    accessKeyId !== undefined && secretAccessKey !== undefined
      ? { accessKeyId, secretAccessKey }
      : null;
  return {
    driver: driver ?? 'local',
    s3: { bucket: bucket ?? '', region, endpoint, forcePathStyle, credentials },
    publicUrl,
  };
}

function parseFlag(raw: string): boolean | null {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  return null;
}

function parseHttpUrl(raw: string | undefined, name: string, problems: string[]): string | null {
  if (raw === undefined) {
    return null;
  }
  const href = normalizeHttpUrl(raw);
  if (href === null) {
    problems.push(`${name} must be an http(s) URL (got "${raw}")`);
    return null;
  }
  const url = new URL(href);
  if (url.search !== '' || url.hash !== '' || hasUrlCredentials(href)) {
    problems.push(`${name} must not carry credentials, a query or a fragment (got "${raw}")`);
    return null;
  }
  return url.href.replace(/\/+$/, '');
}
