import fc from "fast-check";
import { expect, test } from "vitest";
import { formatCount, formatDate, formatDateTime, formatPrice } from "./format";

// The hand-written formats must read exactly as Intl's en-US ones they stand in for.

// One Intl formatter per currency: making one is most of the time of a comparison (12,000 of
// them timed out the test on a loaded machine).
const intlFormats = new Map<string, Intl.NumberFormat>();
const intlPrice = (amount: number, currency: string) => {
  let format = intlFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    intlFormats.set(currency, format);
  }
  return format.format(amount);
};

test("prices in USD, EUR and GBP read as Intl writes them", () => {
  for (const currency of ["USD", "EUR", "GBP"]) {
    for (const amount of [0, -0, 0.005, 0.015, 1.005, 1.995, 9.999, 15.9, 999.995, 1234.5, 1e6]) {
      expect(formatPrice(amount, currency)).toBe(intlPrice(amount, currency));
      expect(formatPrice(-amount, currency)).toBe(intlPrice(-amount, currency));
    }
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1e15, max: 1e15 }), (amount) => {
        expect(formatPrice(amount, currency)).toBe(intlPrice(amount, currency));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        (cents, qty) => {
          const amount = (cents / 100) * qty;
          expect(formatPrice(amount, currency)).toBe(intlPrice(amount, currency));
        },
      ),
      { numRuns: 2000 },
    );
  }
});

test("other currencies and odd numbers go through Intl", () => {
  expect(formatPrice(1234.5, "JPY")).toBe(intlPrice(1234.5, "JPY"));
  expect(formatPrice(1234.5, "CHF")).toBe(intlPrice(1234.5, "CHF"));
  for (const amount of [Number.NaN, Infinity, -Infinity, 1e21, 1e-7]) {
    expect(formatPrice(amount)).toBe(intlPrice(amount, "USD"));
  }
});

test("counts read as toLocaleString writes them", () => {
  for (const n of [0, 7, 999, 1000, 12345, 1234567, -1234, 2 ** 53 + 2, 1.5]) {
    expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  }
  fc.assert(
    fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
      expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
    }),
  );
});

test("dates read as toLocaleDateString writes them", () => {
  const intl = (iso: string) =>
    new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
  for (const iso of ["2026-11-21T10:00:00.000Z", "2024-02-29T23:59:59.999Z", "not a date"]) {
    expect(formatDate(iso)).toBe(intl(iso));
  }
  fc.assert(
    fc.property(
      fc.date({
        min: new Date("0001-01-01T00:00:00Z"),
        max: new Date("9999-12-31T00:00:00Z"),
        noInvalidDate: true,
      }),
      (d) => {
        expect(formatDate(d.toISOString())).toBe(intl(d.toISOString()));
      },
    ),
    { numRuns: 2000 },
  );
});

test("a moment reads as the date, then the time as Intl writes it in en-US", () => {
  for (const iso of [
    "2026-11-24T00:05:00",
    "2026-11-24T12:00:00",
    "2026-11-24T13:03:42",
    "2026-01-02T23:59:00",
  ]) {
    const d = new Date(iso);
    const intl = `${d.toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" })}, ${d.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" })}`;
    expect(formatDateTime(d.toISOString())).toBe(intl.replace(/\u202f/g, " "));
  }
});
