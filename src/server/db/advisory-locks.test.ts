import { expect, test } from "vitest";
import { advisoryLocks } from "./advisory-locks";

test("every advisory lock has a number of its own", () => {
  const numbers = Object.values(advisoryLocks);
  expect(new Set(numbers).size).toBe(numbers.length);
});
