import { expect, test } from "vitest";
import type { ProductBackorder } from "../../contract/availability";
import { choose, entriesFromLines, judge, mergeLines, type Candidate } from "./service";

let n = 0;
const candidate = (over: Partial<Candidate> = {}): Candidate => {
  n += 1;
  return {
    key: "X",
    kind: "ours",
    brand: "",
    number: `PW-${n}`,
    position: 0,
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    name: `Part ${n}`,
    partNumber: `PW-${n}`,
    img: "/x.svg",
    priceCents: 1000,
    breaks: [],
    minimumOrder: 1,
    retailMinimum: 1,
    packSize: 1,
    availableQuantity: 10,
    ...over,
  };
};

test("our own number wins over a cross-reference to another part", () => {
  const ours = candidate();
  const theirs = candidate({ kind: "competitor" });
  expect(choose([theirs, ours])).toEqual({ product: ours });
});

test("several cross-references of one part are one match, the carmaker's first", () => {
  const p = candidate({ kind: "competitor", position: 0 });
  const oe = { ...p, kind: "OE" as const, position: 3 };
  expect(choose([p, oe])).toEqual({ product: oe });
});

test("a cross-reference shared by two parts asks which one", () => {
  const a = candidate({ kind: "competitor" });
  const b = candidate({ kind: "competitor" });
  expect(choose([a, b])).toEqual({ choices: [a, b] });
  expect(choose([])).toEqual({ none: true });
});

const codes = (l: ReturnType<typeof judge>) => l.problems.map((p) => p.code);

test("judging: stock and minimum in the order customers are told them", () => {
  const p = candidate({ minimumOrder: 5, availableQuantity: 20 });
  const at = (qty: number | null, product = p) =>
    codes(judge({ line: 1, number: "x" }, qty, { product }));
  expect(at(5)).toEqual([]);
  expect(at(20)).toEqual([]);
  expect(at(4)).toEqual(["below_minimum"]);
  expect(at(21)).toEqual(["over_stock"]);
  expect(at(null)).toEqual(["bad_quantity"]);
  expect(at(5, { ...p, availableQuantity: 0 })).toEqual(["out_of_stock"]);
  // Minimum above the stock: the minimum is said first.
  expect(at(1, { ...p, minimumOrder: 30 })).toEqual(["below_minimum"]);
});

test("beyond the shelf, a part that takes backorders with a date is a notice; beyond its supply, refused", () => {
  const p = candidate({ minimumOrder: 1, availableQuantity: 4 });
  const offer: ProductBackorder = { available: true, expectedOn: "2027-01-12", more: 10 };
  const at = (qty: number, o: ProductBackorder | null = offer, product = p) =>
    judge({ line: 1, number: "x" }, qty, { product }, [], o).problems;
  expect(at(10)).toEqual([
    {
      code: "backorder",
      message: "4 in stock now; 6 on backorder, expected 12 Jan 2027",
      blocking: false,
    },
  ]);
  expect(at(10, offer, { ...p, availableQuantity: 0 })[0]!.message).toBe(
    "0 in stock now; 10 on backorder, expected 12 Jan 2027",
  );
  expect(at(11, offer, { ...p, availableQuantity: 0 }).map((x) => x.code)).toEqual([
    "out_of_stock",
  ]);
  expect(at(15).map((x) => x.code)).toEqual(["over_stock"]);
  expect(at(10, { ...offer, more: null }).map((x) => x.blocking)).toEqual([false]);
  expect(at(10, null).map((x) => x.code)).toEqual(["over_stock"]);
  expect(at(10, { available: false, expectedOn: null, more: null }).map((x) => x.code)).toEqual([
    "over_stock",
  ]);
});

test("a superseded number is a notice, not a blocking problem", () => {
  const p = candidate({ kind: "superseded", number: "PW-OLD", partNumber: "PW-NEW" });
  const l = judge({ line: 1, number: "pw old" }, 2, { product: p });
  expect(l.problems).toEqual([
    { code: "superseded", message: "PW-OLD is superseded by PW-NEW", blocking: false },
  ]);
});

test("an unknown number carries its suggestions; a bad quantity is told too", () => {
  const s = [{ productId: candidate().id, number: "PW-1", name: "One" }];
  const l = judge({ line: 3, number: " " }, null, { none: true }, s);
  expect(l.problems).toEqual([
    { code: "unknown", message: "No part has the number (empty)", blocking: true, suggestions: s },
    { code: "bad_quantity", message: "Enter a whole quantity of at least 1", blocking: true },
  ]);
  expect(judge({ line: 1, number: "Q" }, 1, { none: true }).problems[0]).not.toHaveProperty(
    "suggestions",
  );
});

test("lines of one part are merged at the first one's place and judged again", () => {
  const p = candidate({ minimumOrder: 4, availableQuantity: 100 });
  const lines = mergeLines([
    judge({ line: 1, number: "a" }, 2, { product: p }),
    judge({ line: 2, number: "Z" }, 1, { none: true }),
    judge({ line: 5, number: "b" }, 3, { product: p }),
    judge({ line: 6, number: "z" }, 2, { none: true }),
    judge({ line: 7, number: "c" }, null, { product: p }),
  ]);
  expect(lines.map((l) => [l.line, l.qty, codes(l)])).toEqual([
    [1, 5, ["merged"]],
    [2, 3, ["unknown", "merged"]],
    [7, null, ["bad_quantity"]],
  ]);
  expect(lines[0]!.problems[0]!.message).toBe("Merged from lines 1, 5");
});

test("merging can bring a line over the stock", () => {
  const p = candidate({ availableQuantity: 5 });
  const [l] = mergeLines([
    judge({ line: 1, number: "a" }, 3, { product: p }),
    judge({ line: 2, number: "a" }, 3, { product: p }),
  ]);
  expect(codes(l!)).toEqual(["over_stock", "merged"]);
});

test("lines given as JSON: blank ones are left out, places count from 1", () => {
  expect(
    entriesFromLines([{ number: " PW-1 ", qty: 2 }, { number: "" }, { number: "PW-2" }]),
  ).toEqual([
    { line: 1, number: "PW-1", qty: 2 },
    { line: 3, number: "PW-2", qty: undefined },
  ]);
});
