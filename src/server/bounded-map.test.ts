import { expect, test } from "vitest";
import { keepBounded } from "./bounded-map";

test("keeps at most max entries, the oldest dropped first", () => {
  const map = new Map<string, number>();
  for (const [i, k] of ["a", "b", "c"].entries()) keepBounded(map, k, i, 2);
  expect([...map.keys()]).toEqual(["b", "c"]);
});

test("a key kept again becomes the newest and drops no other", () => {
  const map = new Map<string, number>();
  keepBounded(map, "a", 1, 2);
  keepBounded(map, "b", 2, 2);
  keepBounded(map, "a", 3, 2);
  expect([...map]).toEqual([
    ["b", 2],
    ["a", 3],
  ]);
  keepBounded(map, "c", 4, 2);
  expect([...map.keys()]).toEqual(["a", "c"]);
});
