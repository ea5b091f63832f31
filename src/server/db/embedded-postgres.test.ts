import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEmbeddedPostgres } from "./embedded-postgres";

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-embedded-test-"));
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

async function postmasterPid(): Promise<number> {
  const text = await fs.readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
  return Number.parseInt(text.split("\n")[0] ?? "", 10);
}

test("restarts after SIGKILL on the same address; stop() returns at once once it is gone", async () => {
  const notes: string[] = [];
  let gaveUp: (err: Error) => void = () => {};
  const givenUp = new Promise<Error>((resolve) => (gaveUp = resolve));
  const log = { info: (m: string) => notes.push(m), warn: (m: string) => notes.push(m) };
  const embedded = await startEmbeddedPostgres(dataDir, log, { restarts: 1, onGiveUp: gaveUp });
  try {
    // First kill: restarted, and the same URL works again.
    process.kill(await postmasterPid(), "SIGKILL");
    const deadline = Date.now() + 10_000;
    let answered = false;
    while (!answered && Date.now() < deadline) {
      const client = new pg.Client({ connectionString: embedded.url });
      client.on("error", () => {});
      answered = await client.connect().then(
        () => client.query("select 1").then(() => true),
        () => false,
      );
      await client.end().catch(() => {});
    }
    expect(answered).toBe(true);
    expect(notes.join("\n")).toMatch(/exited unexpectedly \(signal SIGKILL\)/);
    expect(notes.join("\n")).toMatch(/restarted in \d+ ms/);

    // Second kill within the minute: past its one restart it gives up.
    process.kill(await postmasterPid(), "SIGKILL");
    expect((await givenUp).message).toMatch(/did not bring it back/);
  } finally {
    const started = Date.now();
    await embedded.stop();
    expect(Date.now() - started).toBeLessThan(500);
  }
}, 60_000);
