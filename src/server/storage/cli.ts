// npm run storage:copy    copies the files under DATA_DIR (product images, return and warranty
//                         photos) to the bucket STORAGE_DRIVER=s3 and the S3_* settings name;
//                         idempotent: run it again after a cut, or just before switching over.
import { ConfigError, loadConfig } from "../config";
import { copyFiles } from "./copy";
import { createStorage } from "./create";
import { createLocalStorage } from "./local";

const usage = "usage: STORAGE_DRIVER=s3 S3_BUCKET=… npm run storage:copy";

async function run(args: string[]): Promise<number> {
  if (args[0] !== "copy") {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  if (config.storage.driver !== "s3") {
    console.error(`Set STORAGE_DRIVER=s3 and the bucket's S3_* settings: ${usage}`);
    return 2;
  }
  const local = await createLocalStorage(config.dataDir);
  const bucket = await createStorage(config.storage, config.dataDir, console.warn);
  try {
    const report = await copyFiles(local, bucket, (key, copied) => {
      if (copied) console.log(`copied ${key}`);
    });
    console.log(
      `${report.copied} files copied (${(report.bytes / 1024 / 1024).toFixed(1)} MiB), ` +
        `${report.skipped} already in bucket ${config.storage.bucket}`,
    );
    return 0;
  } finally {
    bucket.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
