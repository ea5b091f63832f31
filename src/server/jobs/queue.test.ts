import { expect, test } from "vitest";
import { createJobQueue } from "./queue";

// The imports' queue and worker were once added after the store's queue had started: when the
// start finished first (a loaded machine), the queue was never made and each import's job was
// dropped without a word (pg-boss sends to an unknown queue as null), the import left "queued".
test("a set-up step or starter added after the start is refused: it would never run", async () => {
  const queue = createJobQueue({
    databaseUrl: "postgres://127.0.0.1:1/nowhere",
    log: { warn: () => {}, error: () => {} },
  });
  queue.setUp(async () => {});
  queue.alongside(async () => []);
  queue.start();
  expect(() => queue.setUp(async () => {})).toThrow(/after it started: it would never run/);
  expect(() => queue.alongside(async () => [])).toThrow(/after it started: it would never run/);
  await queue.stop();
});
