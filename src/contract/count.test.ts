import { expect, test } from "vitest";
import { plural, pluralCount } from "./count";

test("plural: one for 1, the plural (regular or given) for any other count, digits as they are", () => {
  expect(plural(1, "item")).toBe("1 item");
  expect(plural(0, "item")).toBe("0 items");
  expect(plural(2, "item")).toBe("2 items");
  expect(plural(1, "company", "companies")).toBe("1 company");
  expect(plural(3, "company", "companies")).toBe("3 companies");
  expect(plural(1234, "order")).toBe("1234 orders");
});

test("pluralCount: the same, the count's thousands separated as toLocaleString('en') does", () => {
  expect(pluralCount(1, "row")).toBe("1 row");
  expect(pluralCount(2000, "row")).toBe("2,000 rows");
  expect(pluralCount(1234567, "delivery", "deliveries")).toBe(
    `${(1234567).toLocaleString("en")} deliveries`,
  );
});
