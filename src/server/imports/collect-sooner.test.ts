import v8 from "node:v8";
import { afterEach, expect, test, vi } from "vitest";
import { collectingSooner } from "./collect-sooner";

afterEach(() => vi.restoreAllMocks());

test("V8 collects sooner while files are read, and gets its own factor back after the last", async () => {
  const flags = vi.spyOn(v8, "setFlagsFromString");
  let endFirst!: () => void;
  const first = collectingSooner(() => new Promise<void>((resolve) => (endFirst = resolve)));
  const second = collectingSooner(async () => "read");
  await expect(second).resolves.toBe("read");
  // The first file is still being read: the setting stays.
  expect(flags.mock.calls).toEqual([["--heap-growing-percent=50"]]);
  endFirst();
  await first;
  expect(flags.mock.calls).toEqual([["--heap-growing-percent=50"], ["--heap-growing-percent=0"]]);
});

test("a file refused halfway gives V8 its own factor back too", async () => {
  const flags = vi.spyOn(v8, "setFlagsFromString");
  await expect(
    collectingSooner(async () => {
      throw new Error("not well-formed");
    }),
  ).rejects.toThrow("not well-formed");
  expect(flags.mock.lastCall).toEqual(["--heap-growing-percent=0"]);
});
