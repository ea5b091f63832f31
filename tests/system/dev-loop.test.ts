import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getFreePort } from "../../src/server/db/free-port";
import { cookieHeader } from "../support/accounts";

/**
 * `npm run dev` (scripts/dev.mjs: the API under tsx watch behind Vite's dev server) on free
 * ports: a person signs up and signs in through Vite's port, as the browser does.
 */
const root = path.resolve(import.meta.dirname, "../..");
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-dev-loop-"));
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

test("npm run dev signs a new account up and in through Vite's port", async () => {
  const [port, apiPort] = [await getFreePort(), await getFreePort()];
  const env = { ...process.env };
  delete env.NODE_ENV; // vitest's "test"; npm run dev is development
  delete env.PUBLIC_URL;
  // Its own process group, so that Vite, tsx and the server it starts all stop with it.
  const dev = spawn(process.execPath, ["scripts/dev.mjs"], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DEMO_IDENTITY_PROVIDER: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  dev.stdout.on("data", (c: Buffer) => (output += c.toString()));
  dev.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise((r) => dev.once("exit", r));
  const vite = `http://localhost:${port}`;
  try {
    // Ready when the API answers through Vite's proxy.
    const t0 = performance.now();
    for (;;) {
      if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`);
      const ok = await fetch(`${vite}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - t0 > 90_000) throw new Error(`not ready in 90 s:\n${output}`);
      await new Promise((r) => setImmediate(r));
    }

    // As the browser sends it: Origin is the page's, Vite's port.
    const headers = { "content-type": "application/json", origin: vite };
    const account = { email: `dev-${Date.now()}@example.com`, password: "Rotor-Caliper-42" };
    const signUp = await fetch(`${vite}/api/auth/sign-up/email`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...account, name: "Dev Person" }),
    });
    expect(signUp.status).toBe(200);
    const signIn = await fetch(`${vite}/api/auth/sign-in/email`, {
      method: "POST",
      headers,
      body: JSON.stringify(account),
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieHeader(signIn.headers.getSetCookie());
    const me = await fetch(`${vite}/api/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(account.email);
    // The API's log, made readable by pino-pretty, names the store's address: Vite's port.
    const listening = new RegExp(`INFO.*store listening on http://localhost:${port}\\b`);
    while (!listening.test(output)) {
      if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`);
      await new Promise((r) => setImmediate(r));
    }
    expect(output).not.toContain('{"level":');
    console.log(
      `npm run dev: ready through Vite ${Math.round(performance.now() - t0)} ms after spawn; sign-up and sign-in 200`,
    );
  } finally {
    if (dev.exitCode === null) process.kill(-dev.pid!, "SIGTERM");
    await exited;
    // The server stops its embedded PostgreSQL on SIGTERM: wait for that before removing its folder.
    const pidFile = path.join(dataDir, "postgres/postmaster.pid");
    const t1 = performance.now();
    while (existsSync(pidFile) && performance.now() - t1 < 20_000) {
      await new Promise((r) => setImmediate(r));
    }
  }
}, 150_000);
