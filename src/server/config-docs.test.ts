import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { envSchema } from "./config";

// The configuration page and the configuration agree: every setting the store reads is
// documented in docs/configuration.md, and every documented setting is read.
test("docs/configuration.md documents exactly the settings config.ts reads", () => {
  const page = readFileSync(
    path.resolve(import.meta.dirname, "../../docs/configuration.md"),
    "utf8",
  );
  // Each table row's first cell names one setting or a few (`GOOGLE_CLIENT_ID`, `…_SECRET`).
  // Rows whose meaning starts "tests only" are read by the test set-up, not by the store.
  const rows = [...page.matchAll(/^\|([^|]*)\|[^|]*\|([^|]*)\|/gm)];
  const firstCells = rows.filter((m) => !/^\s*tests only/.test(m[2]!)).map((m) => m[1]!);
  const documented = new Set(
    firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );
  const read = new Set(Object.keys(envSchema.shape));
  expect([...read].filter((k) => !documented.has(k)).sort()).toEqual([]);
  expect([...documented].filter((k) => !read.has(k)).sort()).toEqual([]);
});
