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
