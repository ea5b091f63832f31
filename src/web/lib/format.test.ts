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

/** The day, month and year Intl's en-US finds for `iso`, in the store's order: "21 Nov 2026". */
function intlDay(iso: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("day")} ${part("month")} ${part("year")}`;
}

test("dates read day, month, year, with the day and month Intl finds in the reader's time zone", () => {
  expect(formatDate("2026-11-21T10:00:00.000Z")).toBe("21 Nov 2026");
  expect(formatDate("not a date")).toBe("Invalid Date");
  for (const iso of ["2026-11-21T10:00:00.000Z", "2024-02-29T23:59:59.999Z"]) {
    expect(formatDate(iso)).toBe(intlDay(iso));
  }
  fc.assert(
    fc.property(
      fc.date({
        min: new Date("1000-01-01T00:00:00Z"),
        max: new Date("9999-12-31T00:00:00Z"),
        noInvalidDate: true,
      }),
      (d) => {
        expect(formatDate(d.toISOString())).toBe(intlDay(d.toISOString()));
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
    const time = d.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" });
    expect(formatDateTime(d.toISOString())).toBe(
      `${intlDay(iso)}, ${time}`.replace(/\u202f/g, " "),
    );
  }
  expect(formatDateTime("2026-11-24T13:03:42")).toBe("24 Nov 2026, 1:03 PM");
});
