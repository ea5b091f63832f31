import { afterEach, vi } from "vitest";

// A stray console.error means something went wrong that no assertion looked at: fail the test.
const spy = vi.spyOn(console, "error");

afterEach(() => {
  const calls = spy.mock.calls;
  spy.mockClear();
  if (calls.length > 0) {
    throw new Error(`console.error was called:\n${calls.map((c) => c.join(" ")).join("\n")}`);
  }
});
