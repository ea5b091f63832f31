import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startServerProcess } from "../support/server-process";

/** Starts the production server on a fresh embedded database with the demo data. */
export default async function globalSetup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-e2e-"));
  const server = await startServerProcess({ NODE_ENV: "production", DATA_DIR: dataDir });
  process.env.E2E_BASE_URL = server.url;
  return async () => {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
