import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { demoSigningKey } from "./demo-identity-provider";

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "demo-idp-key-"));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

test("the demo identity provider's key is an EC key, made once and kept private in the data folder (issue 49, finding 4)", async () => {
  const file = path.join(dir, "data", "demo-identity-provider-key.json");
  const made = await demoSigningKey(file);
  // An RSA key made at every start deadlocked Node 20's crypto as it was exported.
  expect(made).toMatchObject({ kty: "EC", crv: "P-256" });
  expect(made.d).toBeTruthy();
  expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  // The next start reads it: no key is made again.
  expect(await demoSigningKey(file)).toEqual(made);
  // Two starts at once agree on one key.
  await fs.rm(file);
  const [a, b] = await Promise.all([demoSigningKey(file), demoSigningKey(file)]);
  expect(a).toEqual(b);
});
