import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '@app/config';
import { byteLimit } from './byte-limit';
import {
  checkObjectKey,
  checkObjectPrefix,
  ObjectInfo,
  ObjectStore,
  ObjectTooLargeError,
  PutOptions,
  StoredObject,
} from './object-store';

/** Buffers up to this size are sent in one PutObject; streams go through a multipart Upload. */
const SINGLE_PUT_MAX = 8 * 1024 * 1024;

/** Objects in an S3-compatible bucket (AWS, MinIO, s3rver...), keys used as they are. */
export class S3ObjectStore extends ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    super();
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials ?? undefined,
    });
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<number> {
    checkObjectKey(key);
    if (Buffer.isBuffer(body) && body.length <= SINGLE_PUT_MAX) {
      if (options.maxBytes !== undefined && body.length > options.maxBytes) {
        throw new ObjectTooLargeError();
      }
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: options.contentType,
        }),
      );
      return body.length;
    }
    const limit = byteLimit(options.maxBytes);
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const relay = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: relay, ContentType: options.contentType },
    });
    const feeding = pipeline(source, limit, relay);
    try {
      await Promise.all([feeding, upload.done()]);
    } catch (error) {
      await upload.abort().catch(() => undefined);
      relay.destroy();
      // A too-large stream fails both; report the cause, not the aborted upload.
      throw (await feeding.then(() => error).catch((cause: unknown) => cause)) as Error;
    }
    return limit.bytes;
  }

  async head(key: string): Promise<ObjectInfo | null> {
    checkObjectKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: out.ContentLength ?? 0, modified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const info = await this.head(key);
    if (info === null) {
      return null;
    }
    const fetch = async (range?: { start: number; end: number }): Promise<Readable> => {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
        }),
      );
      return out.Body as Readable;
    };
    return {
      ...info,
      stream: (range) => {
        const relay = new PassThrough();
        if (info.size === 0 || (range !== undefined && range.end < range.start)) {
          relay.end();
          return relay;
        }
        fetch(range).then(
          (body) => body.on('error', (e) => relay.destroy(e)).pipe(relay),
          (error: Error) => relay.destroy(error),
        );
        return relay;
      },
      buffer: async () => {
        if (info.size === 0) return Buffer.alloc(0);
        const chunks: Buffer[] = [];
        for await (const chunk of await fetch()) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
    };
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((key) => ({ Key: checkObjectKey(key) }));
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch, Quiet: true },
        }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(`Could not delete ${failed.length} objects: ${failed[0].Message}`);
      }
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    checkObjectPrefix(prefix);
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix === '' ? undefined : prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of out.Contents ?? []) {
        if (item.Key === undefined) continue;
        yield { key: item.Key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  override close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
