import { expect, test } from "vitest";
import { oneAtATime } from "./one-at-a-time";

/** A task that records when it starts and ends, and ends when told. */
function task(log: string[], name: string, fail = false) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const run = async () => {
    log.push(`${name} starts`);
    await done;
    log.push(`${name} ends`);
    if (fail) throw new Error(name);
    return name;
  };
  return { run, finish };
}

test("one key's tasks run one after another, even after a failure; other keys' at once", async () => {
  const turns = oneAtATime();
  const log: string[] = [];
  const a1 = task(log, "a1", true);
  const a2 = task(log, "a2");
  const b1 = task(log, "b1");
  const first = turns("a", a1.run);
  const second = turns("a", a2.run);
  const other = turns("b", b1.run);
  await Promise.resolve();
  expect(log).toEqual(["a1 starts", "b1 starts"]);
  a1.finish();
  await expect(first).rejects.toThrow("a1");
  await expect.poll(() => log).toContain("a2 starts");
  a2.finish();
  b1.finish();
  expect(await second).toBe("a2");
  expect(await other).toBe("b1");
  expect(log.indexOf("a2 starts")).toBeGreaterThan(log.indexOf("a1 ends"));
});
