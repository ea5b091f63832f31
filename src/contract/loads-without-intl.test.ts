import { afterEach, expect, test, vi } from "vitest";

// Intl's first use maps its locale data (about 6 MiB of the server's memory, bench/README.md
// "Start-up memory"): the contract's messages are made as their modules load, so none of them may
// format a number or a date with Intl then. Counts use formatCount (count.ts).

afterEach(() => vi.restoreAllMocks());

test("no contract module formats a number or a date with Intl as it loads", async () => {
  const calls = [
    vi.spyOn(Number.prototype, "toLocaleString"),
    vi.spyOn(Date.prototype, "toLocaleString"),
    vi.spyOn(Date.prototype, "toLocaleDateString"),
    vi.spyOn(Intl, "NumberFormat"),
    vi.spyOn(Intl, "DateTimeFormat"),
  ];
  vi.resetModules();
  const modules = import.meta.glob(["./*.ts", "!./*.test.ts"]);
  expect(Object.keys(modules).length).toBeGreaterThan(50);
  for (const [path, load] of Object.entries(modules)) {
    await load();
    for (const call of calls) expect(call, `${path} as it loads`).not.toHaveBeenCalled();
  }
});
