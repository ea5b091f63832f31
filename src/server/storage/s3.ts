import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  fileNotFound,
  parseKey,
  storageKey,
  storageUnavailable,
  type FileStorage,
  type StorageArea,
} from "./storage";

/** The bucket and how to reach it (S3_* settings, docs/storage.md). */
export interface S3Settings {
  /** An S3-compatible server's URL (MinIO, R2, Ceph RGW); unset: AWS S3 in `region`. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the SDK's own chain (AWS_* variables, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `bucket` in the path rather than the host name (MinIO and most S3-compatible servers). */
  forcePathStyle: boolean;
  /** Each call's bound: no answer by then (or no progress, for a streamed upload) is a 503. */
  timeoutMs: number;
}

/** Told when the bucket fails a call (the error's name and status, never the settings). */
export type StorageLog = (message: string) => void;

const keyOrUndefined = (area: StorageArea, name: string) => {
  try {
    return storageKey(area, name);
  } catch {
    return undefined;
  }
};
const statusOf = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (err: unknown) => {
  const name = (err as { name?: string }).name;
  return name === "NoSuchKey" || name === "NotFound" || statusOf(err) === 404;
};

/**
 * The S3 driver: one client (kept-alive connections), every call bounded by `timeoutMs` through
 * an abort signal (and the sockets by the same idle timeout), so a bucket that is down or slow
 * answers 503 (`storageUnavailable`) within the request's deadline, never a hang or a 500. A
 * missing object is 404.
 */
export function createS3Storage(settings: S3Settings, log: StorageLog = () => {}): FileStorage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: settings.timeoutMs,
      requestTimeout: settings.timeoutMs,
      throwOnRequestTimeout: true,
    },
    // Checksums only where S3 asks for them: S3-compatible servers that predate AWS's default
    // CRC32 headers (Ceph, older MinIO) refuse them, and our keys are never rewritten anyway.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;

  /** Runs `call` with an abort signal that fires at the timeout; its errors become 503 or 404. */
  async function bounded<T>(what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
    try {
      return await call(controller.signal);
    } catch (err) {
      if (isMissing(err)) throw fileNotFound();
      const name = (err as { name?: string }).name ?? "Error";
      const status = statusOf(err);
      log(
        `file storage: ${what} failed (${controller.signal.aborted ? `no answer within ${settings.timeoutMs} ms` : `${name}${status ? ` ${status}` : ""}`})`,
      );
      throw storageUnavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  async function putStream(key: string, body: Readable, contentType: string) {
    // Bounded by progress: each part sent restarts the clock.
    const controller = new AbortController();
    let timer = setTimeout(() => controller.abort(), settings.timeoutMs);
    const upload = new Upload({
      client,
      params: { Bucket, Key: key, Body: body, ContentType: contentType },
      abortController: controller,
      queueSize: 2,
    });
    upload.on("httpUploadProgress", () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), settings.timeoutMs);
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      log(
        `file storage: upload failed (${controller.signal.aborted ? `no progress within ${settings.timeoutMs} ms` : ((err as { name?: string }).name ?? "Error")})`,
      );
      throw storageUnavailable();
    } finally {
      clearTimeout(timer);
    }
  }

  const remove = async (key: string) => {
    parseKey(key);
    await bounded("removal", (abortSignal) =>
      client.send(new DeleteObjectCommand({ Bucket, Key: key }), { abortSignal }),
    );
  };

  return {
    driver: "s3",
    remove,

    async put(key, body, { contentType }) {
      parseKey(key);
      try {
        if (!Buffer.isBuffer(body)) return await putStream(key, body, contentType);
        await bounded("upload", (abortSignal) =>
          client.send(
            new PutObjectCommand({
              Bucket,
              Key: key,
              Body: body,
              ContentType: contentType,
              ContentLength: body.length,
            }),
            { abortSignal },
          ),
        );
      } catch (err) {
        // An upload aborted as the bucket stored it would leave an object without its row:
        // removed now if the bucket answers (if not, a random name nothing refers to).
        await remove(key).catch(() => {});
        throw err;
      }
    },

    async get(key) {
      parseKey(key);
      const res = await bounded("download", (abortSignal) =>
        client.send(new GetObjectCommand({ Bucket, Key: key }), { abortSignal }),
      );
      return {
        body: res.Body as Readable,
        size: res.ContentLength ?? 0,
        contentType: res.ContentType,
      };
    },

    async head(key) {
      parseKey(key);
      try {
        const res = await bounded("look-up", (abortSignal) =>
          client.send(new HeadObjectCommand({ Bucket, Key: key }), { abortSignal }),
        );
        return { size: res.ContentLength ?? 0 };
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) return undefined;
        throw err;
      }
    },

    async *list(area) {
      let ContinuationToken: string | undefined;
      do {
        const page = await bounded("listing", (abortSignal) =>
          client.send(new ListObjectsV2Command({ Bucket, Prefix: `${area}/`, ContinuationToken }), {
            abortSignal,
          }),
        );
        for (const o of page.Contents ?? []) {
          const key = keyOrUndefined(area, o.Key?.slice(area.length + 1) ?? "");
          // Objects the store did not write (another prefix's, a folder marker) are not listed.
          if (key) yield { key, size: o.Size ?? 0 };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    close() {
      client.destroy();
    },
  };
}
