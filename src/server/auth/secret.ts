import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * The secret that signs session cookies. Configured in production (config.ts refuses to start
 * without it); in the demo default it is generated once and kept in the data folder (mode 0600).
 */
export async function loadAuthSecret(configured: string | undefined, dataDir: string) {
  if (configured) return configured;
  const file = path.join(dataDir, "auth-secret");
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    await fs.mkdir(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    await fs.writeFile(file, secret, { mode: 0o600, flag: "wx" }).catch(async (err: unknown) => {
      // Another process wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    });
    return (await fs.readFile(file, "utf8")).trim();
  }
}
