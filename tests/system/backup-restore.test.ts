import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TEST_SHIP_TO } from "../support/destination";
import { HttpCustomer } from "../support/http-customer";
import { eventually } from "../support/mailbox";
import { getFreePort } from "../../src/server/db/free-port";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// A running store (embedded PostgreSQL) is backed up with `npm run backup`, restored with
// `npm run restore` into a fresh data folder, and a store started on that folder shows the same.
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
let tmp: string;
let original: ServerProcess | undefined;
let restored: ServerProcess | undefined;

const env = {
  SEED_DEMO_DATA: "true",
  DEMO_IDENTITY_PROVIDER: "false",
  LOG_LEVEL: "warn",
  // Small enough for the test to exhaust it before the backup (everything comes from 127.0.0.1).
  AUTH_RATE_LIMIT_PER_IP: "12",
  HOLD_NEW_CUSTOMER_SHARE: "1",
  HOLD_MAX_VALUE: "1000000000",
  HOLD_FREE_UNITS: "1000000",
};

/** `npm run backup|restore -- FOLDER`: the compiled tool, as it runs without dev dependencies. */
function cli(command: "backup" | "restore", folder: string, dataDir: string) {
  return run(process.execPath, ["dist/server/backup.js", command, folder], {
    cwd: root,
    env: { ...processEnv(), DATA_DIR: dataDir },
  });
}

/** This environment without a database address of its own: the stores use the embedded one. */
function processEnv() {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_DIRECT_URL;
  delete env.BETTER_AUTH_SECRET;
  return env;
}

async function tableFiles(folder: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const f of await fs.readdir(path.join(folder, "tables"))) {
    const text = await fs.readFile(path.join(folder, "tables", f), "utf8");
    out[f] = text.split("\n").filter(Boolean).sort();
  }
  return out;
}

beforeAll(async () => {
  // `npm test` runs these tests before its build step: compile the server and the tool.
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "store-backup-"));
  // As root, the embedded PostgreSQL runs as its own user, which must reach the data folders.
  await fs.chmod(tmp, 0o755);
});

afterAll(async () => {
  await Promise.all([original?.stop(), restored?.stop()]);
  await fs.rm(tmp, { recursive: true, force: true });
});

test("backup of a running store → restore into a fresh folder → the same store", async () => {
  const first = path.join(tmp, "first");
  // Its SMTP server is down: the emails it queues are still unsent when the backup is made.
  const deadSmtp = `smtp://127.0.0.1:${await getFreePort()}`;
  original = await startServerProcess({
    ...env,
    DATA_DIR: first,
    BETTER_AUTH_SECRET: "",
    SMTP_URL: deadSmtp,
  });
  const customer = new HttpCustomer(original.url, "keeper@example.com");
  await customer.signUp();
  const list = await customer.json<{ _id: string; minimumOrder: number }[]>("GET", "/api/products");
  const product = list.body[0]!;
  const order = await customer.request("POST", "/api/orders", {
    productId: product._id,
    orderQty: product.minimumOrder,
    phonrNo: "5550100",
    Address: "3 Backup Lane",
    shipTo: { ...TEST_SHIP_TO, line1: "3 Backup Lane" },
  });
  expect(`${order.status} ${order.status === 201 ? "" : await order.text()}`).toBe("201 ");
  await fs.writeFile(path.join(first, "uploads", "kept.svg"), "<svg/>");

  // Someone guessed passwords until the store refused: its rate-limit counters are exhausted
  // when the backup is made (they were restored too, and the restored store answered 429).
  let refused = 0;
  for (let i = 0; i < 20 && refused === 0; i++) {
    const guess = await customer.request("POST", "/api/auth/sign-in/email", {
      email: "keeper@example.com",
      password: `Wrong-Guess-${i}`,
    });
    if (guess.status === 429) refused++;
    else expect(guess.status).toBe(401);
  }
  expect(refused).toBe(1);
  const stillRefused = await customer.request("POST", "/api/auth/sign-in/email", {
    email: "keeper@example.com",
    password: "Rotor-Caliper-42",
  });
  expect(stillRefused.status).toBe(429);

  const backup = path.join(tmp, "backup");
  const made = await cli("backup", backup, first);
  console.log(made.stdout.trim());
  const manifest = JSON.parse(await fs.readFile(path.join(backup, "manifest.json"), "utf8")) as {
    tables: Record<string, number>;
    queuedMail: number;
  };
  // The verification email and the order's email, at least.
  expect(manifest.queuedMail).toBeGreaterThanOrEqual(2);
  expect(manifest.tables.orders).toBeGreaterThan(0);
  expect(manifest.tables.reviews).toBeGreaterThan(0);
  expect(manifest.tables.user).toBe(3);

  const second = path.join(tmp, "second");
  const restoredOut = await cli("restore", backup, second);
  console.log(restoredOut.stdout.trim());
  // The original keeps running meanwhile: the restored store is a separate one.
  restored = await startServerProcess({ ...env, DATA_DIR: second, BETTER_AUTH_SECRET: "" });

  // Its data, backed up again, is the same rows, table by table.
  const again = path.join(tmp, "again");
  await cli("backup", again, second);
  expect(await tableFiles(again)).toEqual(await tableFiles(backup));
  expect(await fs.readFile(path.join(second, "auth-secret"), "utf8")).toBe(
    await fs.readFile(path.join(first, "auth-secret"), "utf8"),
  );

  // The customer signs in with the same password (at once: no counter came back with the
  // backup) and sees the order; the upload is served.
  const back = new HttpCustomer(restored.url, "keeper@example.com");
  const signIn = await back.request("POST", "/api/auth/sign-in/email", {
    email: "keeper@example.com",
    password: "Rotor-Caliper-42",
  });
  expect(signIn.status).toBe(200);
  // The counters' table was backed up, its rows were not.
  expect(manifest.tables.rate_limit).toBe(0);
  const orders = await back.json<unknown[] | { orders: unknown[] }>("GET", "/api/orders");
  expect(orders.status).toBe(200);
  expect(JSON.stringify(orders.body)).toContain("3 Backup Lane");
  const file = await fetch(`${restored.url}/uploads/kept.svg`);
  expect(await file.text()).toBe("<svg/>");

  // The restored store (its own local SMTP server) sends what the original could not: the
  // order's email arrives once.
  const { order: placed } = (await order.json()) as { order: { number: string } };
  const subject = `Your PartsWorks order ${placed.number} is placed`;
  const mailbox = async () =>
    (await (await fetch(`${restored!.url}/api/dev/mailbox`)).json()) as {
      to: string[];
      subject: string;
    }[];
  await eventually(
    async () => ((await mailbox()).some((m) => m.subject === subject) ? true : undefined),
    "the restored store to send the backed-up order email",
    30_000,
  );
  const sent = (await mailbox()).filter((m) => m.subject === subject);
  expect(sent.map((m) => m.to)).toEqual([["keeper@example.com"]]);
}, 240_000);
