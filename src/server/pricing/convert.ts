import { RATE_DECIMALS, type RoundingRule } from "../../contract/markets";

/**
 * Money from the store's currency into a market's (docs/pricing.md "Markets and currencies"):
 * pure, integer minor units in and out, exact (BigInt: no float ever touches an amount). The rate
 * has at most RATE_DECIMALS decimals (the contract and the column keep it so).
 */

const SCALE = 10n ** BigInt(RATE_DECIMALS);

/** The rate as an integer count of millionths (0.92 → 920000n). */
export function rateUnits(rate: number): bigint {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`bad exchange rate ${rate}`);
  return BigInt(Math.round(rate * Number(SCALE)));
}

/** num / den rounded half up, both not negative. */
const halfUp = (num: bigint, den: bigint) => (num * 2n + den) / (2n * den);

/**
 * `amountMinor` (store currency) in the market's currency, rounded by `rule`: to the cent, to
 * whole units, or to the nearest price ending in .99 / .95 (below half a unit, to the cent). Never
 * negative, monotone in the amount, and rate 1 with "cent" is the identity.
 */
export function convertMinor(amountMinor: number, rate: number, rule: RoundingRule): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`an amount is a whole number of minor units, not ${amountMinor}`);
  }
  // The converted amount in millionths of a cent.
  const exact = BigInt(amountMinor) * rateUnits(rate);
  const cents = halfUp(exact, SCALE);
  const charm = (ending: bigint) => {
    // Below half a unit (50 cents) a price stays as it is to the cent.
    if (exact < 50n * SCALE) return cents;
    // The nearest whole unit to (amount + ending), less the ending: …9.99, …9.95.
    return halfUp(exact + (100n - ending) * SCALE, 100n * SCALE) * 100n - (100n - ending);
  };
  const rounded =
    rule === "cent"
      ? cents
      : rule === "whole"
        ? halfUp(exact, 100n * SCALE) * 100n
        : rule === "end99"
          ? charm(99n)
          : charm(95n);
  return Number(rounded);
}

/**
 * An amount of the market's currency back in the store's (to the cent, half up): what money
 * limits set in the store's currency compare.
 */
export function toStoreMinor(amountMinor: number, rate: number): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`an amount is a whole number of minor units, not ${amountMinor}`);
  }
  return Number(halfUp(BigInt(amountMinor) * SCALE, rateUnits(rate)));
}
