import { expect, test } from "vitest";
import { chartWords } from "./orders-overview";

test("the chart reads to a screen reader as the pages write days, counts and money", () => {
  const days = [
    { date: "2026-12-05", orders: 0, revenue: 0 },
    { date: "2026-12-06", orders: 1, revenue: 44.36 },
    { date: "2026-12-07", orders: 2, revenue: 1234.5 },
  ];
  expect(chartWords({ days, currency: "USD" })).toBe(
    "5 Dec 2026: 0 orders, $0.00; 6 Dec 2026: 1 order, $44.36; 7 Dec 2026: 2 orders, $1,234.50",
  );
});
