import { createLocalStorage } from "./local";
import type { S3Settings, StorageLog } from "./s3";
import type { FileStorage } from "./storage";

/** Which driver keeps the store's files (STORAGE_DRIVER and the S3_* settings). */
export type StorageSettings = { driver: "local" } | ({ driver: "s3" } & S3Settings);

/**
 * The store's file storage as configured: the local disk under `dataDir` (the default), or the
 * bucket. The AWS SDK is loaded only when the bucket is used (a store on its disk never pays for it).
 */
export async function createStorage(
  settings: StorageSettings,
  dataDir: string,
  log?: StorageLog,
): Promise<FileStorage> {
  if (settings.driver === "local") return createLocalStorage(dataDir);
  const { createS3Storage } = await import("./s3");
  return createS3Storage(settings, log);
}
