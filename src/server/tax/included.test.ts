import fc from "fast-check";
import { expect, test } from "vitest";
import { grossOfCents, taxIncludedInCents, taxOnCents } from "./rules";

// Prices with VAT included (docs/tax.md "Prices with VAT included"): a consumer is shown gross
// prices; the VAT is the part their gross total contains, so the total is exactly the prices shown.

const amount = fc.integer({ min: 0, max: 2 ** 31 - 1 });
// Rates in thousandths of a percent, 0 to 100 %.
const rate = fc.integer({ min: 0, max: 100_000 });

test("the VAT contained is never negative nor above the gross, and net + VAT is the gross", () => {
  fc.assert(
    fc.property(amount, rate, (gross, r) => {
      const vat = taxIncludedInCents(gross, r);
      expect(Number.isSafeInteger(vat)).toBe(true);
      expect(vat).toBeGreaterThanOrEqual(0);
      expect(vat).toBeLessThanOrEqual(gross);
      // Within half a cent of the exact share gross × r / (1 + r).
      expect(Math.abs(vat - (gross * r) / (100_000 + r))).toBeLessThanOrEqual(0.5 + 1e-6);
    }),
  );
});

test("of a gross price made from a net one, the VAT contained is the tax on the net", () => {
  fc.assert(
    fc.property(amount, rate, (net, r) => {
      const gross = grossOfCents(net, r);
      expect(gross).toBe(net + taxOnCents(net, r));
      expect(taxIncludedInCents(gross, r)).toBe(taxOnCents(net, r));
    }),
  );
});

test("by example: €19.99 net at 19 % is €23.79 gross, which includes €3.80 of VAT; a line of three, €71.37, includes €11.40", () => {
  expect(grossOfCents(1999, 19_000)).toBe(2379);
  expect(taxIncludedInCents(2379, 19_000)).toBe(380);
  expect(taxIncludedInCents(3 * 2379, 19_000)).toBe(1140);
  expect(taxIncludedInCents(0, 19_000)).toBe(0);
  expect(taxIncludedInCents(2379, 0)).toBe(0);
  expect(() => taxIncludedInCents(-1, 19_000)).toThrow(RangeError);
});
