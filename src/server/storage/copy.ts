import path from "node:path";
import { areaNames, type FileStorage } from "./storage";

const contentTypes: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
};
/** A stored file's type by its name's extension (the store names every file by its bytes' type). */
export const contentTypeOf = (key: string) =>
  contentTypes[path.extname(key).toLowerCase()] ?? "application/octet-stream";

export interface CopyReport {
  copied: number;
  /** Already in the bucket with the same size: left as they are. */
  skipped: number;
  bytes: number;
}

/**
 * Copies every file of every area from `from` (the local disk) to `to` (the bucket), streamed one
 * at a time. Idempotent: a file already there with the same size is skipped (the store never
 * rewrites a name, so the same name and size is the same file), so a copy cut short is simply run
 * again. Nothing is deleted on either side.
 */
export async function copyFiles(
  from: FileStorage,
  to: FileStorage,
  progress: (key: string, copied: boolean) => void = () => {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytes: 0 };
  for (const area of areaNames) {
    for await (const { key, size } of from.list(area)) {
      const there = await to.head(key);
      if (there?.size === size) {
        report.skipped += 1;
        progress(key, false);
        continue;
      }
      // A partial object of the same name (from a copy cut short) is replaced whole.
      if (there) await to.remove(key);
      const file = await from.get(key);
      await to.put(key, file.body, { contentType: contentTypeOf(key) });
      report.copied += 1;
      report.bytes += size;
      progress(key, true);
    }
  }
  return report;
}
