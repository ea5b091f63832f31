// File storage (issue 55, docs/storage.md): a 2 MiB photo stored through the S3 driver
// (`src/server/storage/s3.ts`, the AWS SDK v3) against a local S3-compatible server (s3rver on
// loopback, as the tests start it, in this process), one at a time; then read back; the local
// driver's put of the same bytes for scale. The figure: the S3 put's p50, target ≤ 50 ms.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startS3Server } from "../tests/support/s3-server";
import { createLocalStorage } from "../src/server/storage/local";
import { createS3Storage } from "../src/server/storage/s3";
import { readAll, storageKey, type FileStorage } from "../src/server/storage/storage";
import { percentile, round } from "./lib/harness";

const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 100);
const WARM_UP = 10;
const BYTES = 2 * 1024 * 1024;

export interface StorageResult {
  rounds: number;
  bytes: number;
  s3Put: { p50Ms: number; p99Ms: number };
  s3Get: { p50Ms: number; p99Ms: number };
  localPut: { p50Ms: number; p99Ms: number };
  target: string;
}

async function timePuts(
  storage: FileStorage,
  photo: Buffer,
): Promise<{ ms: number[]; keys: string[] }> {
  const ms: number[] = [];
  const keys: string[] = [];
  for (let i = 0; i < WARM_UP + ROUNDS; i++) {
    const key = storageKey("return-photos", `${randomUUID()}.jpg`);
    const t0 = performance.now();
    await storage.put(key, photo, { contentType: "image/jpeg" });
    if (i >= WARM_UP) ms.push(performance.now() - t0);
    keys.push(key);
  }
  return { ms, keys };
}

const summary = (ms: number[]) => ({
  p50Ms: round(percentile(ms, 0.5)),
  p99Ms: round(percentile(ms, 0.99)),
});

export async function runStorageBench(): Promise<StorageResult> {
  const photo = Buffer.alloc(BYTES);
  for (let i = 0; i < BYTES; i++) photo[i] = (i * 2654435761) >>> 24;
  const server = await startS3Server();
  const s3 = createS3Storage(server.settings(5000));
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-files-"));
  try {
    const puts = await timePuts(s3, photo);
    const gets: number[] = [];
    for (const key of puts.keys.slice(WARM_UP)) {
      const t0 = performance.now();
      const back = await readAll(await s3.get(key));
      gets.push(performance.now() - t0);
      if (back.length !== BYTES) throw new Error(`read back ${back.length} bytes of ${BYTES}`);
    }
    const local = await timePuts(await createLocalStorage(dataDir), photo);
    return {
      rounds: ROUNDS,
      bytes: BYTES,
      s3Put: summary(puts.ms),
      s3Get: summary(gets),
      localPut: summary(local.ms),
      target: "S3 put p50 ≤ 50 ms (issue 55)",
    };
  } finally {
    s3.close();
    await server.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function printStorage(r: StorageResult) {
  console.log(
    `Storage: a ${r.bytes / 1024 / 1024} MiB photo, ${r.rounds} times one at a time (after ${WARM_UP} warm-ups)`,
  );
  console.log(
    `  S3 driver → s3rver on loopback: put p50 ${r.s3Put.p50Ms} ms, p99 ${r.s3Put.p99Ms} ms`,
  );
  console.log(
    `  S3 driver read back whole:      get p50 ${r.s3Get.p50Ms} ms, p99 ${r.s3Get.p99Ms} ms`,
  );
  console.log(
    `  local driver (DATA_DIR):         put p50 ${r.localPut.p50Ms} ms, p99 ${r.localPut.p99Ms} ms`,
  );
  console.log(`  target: ${r.target}`);
}
