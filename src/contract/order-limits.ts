import { z } from "zod";
import { DEFAULTS_IN_FORCE, hasAtMostTwoDecimals, wholeNumber } from "./common";
import { formatCount } from "./count";

/**
 * The order limits an admin sets on Manage All Orders (docs/ordering.md "Holds that cannot be
 * abused"): how long an unpaid order holds its stock, how much of it one account may hold, and
 * how often one may order. Until an admin saves them, the environment's values are in force.
 */

/** A year, as the environment allows. */
export const MAX_HOLD_HOURS = 24 * 365;
export const MAX_NEW_CUSTOMER_HOLD_MINUTES = 24 * 365 * 60;
export const MAX_FREE_UNITS = 1_000_000;
export const MAX_HELD_VALUE = 1_000_000_000;
export const MAX_ORDERS_PER_MINUTE = 10_000;
export const MAX_QUICK_ORDER_PER_MINUTE = 1_000_000;

const percent = (message: string) => wholeNumber(message, 1, 100);

/** What an admin reads about the order limits. */
export const orderLimitMessages = {
  holdHours: `An unpaid order's hold is a whole number of hours from 1 to ${formatCount(MAX_HOLD_HOURS)}`,
  holdWarningHours: `The reminder before a hold ends is a whole number of hours from 1 to ${formatCount(MAX_HOLD_HOURS)}`,
  newCustomerHoldMinutes: `A new customer's hold is a whole number of minutes from 1 to ${formatCount(MAX_NEW_CUSTOMER_HOLD_MINUTES)}`,
  maxSharePercent: "One line's share of the stock is a whole percent from 1 to 100",
  freeUnits: `The units a line may always hold are a whole number from 0 to ${formatCount(MAX_FREE_UNITS)}`,
  newCustomerSharePercent: "New customers' share of the stock is a whole percent from 1 to 100",
  maxHeldValue: `The value one account may hold is more than 0 and at most ${formatCount(MAX_HELD_VALUE)}, with at most 2 decimals`,
  ordersPerMinute: `Orders per minute is a whole number from 1 to ${formatCount(MAX_ORDERS_PER_MINUTE)}`,
  quickOrderPerMinute: `Quick-order lookups per minute is a whole number from 1 to ${formatCount(MAX_QUICK_ORDER_PER_MINUTE)}`,
  /** Beside the form while no admin has saved the limits. */
  defaultsInForce: DEFAULTS_IN_FORCE,
  /** What the admin is told once the limits are saved. */
  saved: (l: OrderLimitsInput) =>
    `Order limits saved: unpaid orders hold stock ${hours(l.holdHours)} (a new customer's ${minutes(l.newCustomerHoldMinutes)})`,
} as const;

const hours = (n: number) => `${formatCount(n)} ${n === 1 ? "hour" : "hours"}`;
const minutes = (n: number) => `${formatCount(n)} ${n === 1 ? "minute" : "minutes"}`;

/**
 * The limits in words: "unpaid orders hold stock 48 hours (a new customer's 30 minutes), a line
 * 50% of the stock or 10 units, new customers together 20%, one account 25,000 in value; 10
 * orders and 60 quick-order lookups a minute; the buyer reminded 12 hours before a hold ends".
 */
export function orderLimitWords(l: OrderLimitsInput): string {
  const newTogether =
    l.newCustomerSharePercent === 100 ? "no cap" : `${l.newCustomerSharePercent}%`;
  return (
    `unpaid orders hold stock ${hours(l.holdHours)} (a new customer's ` +
    `${minutes(l.newCustomerHoldMinutes)}), a line ${l.maxSharePercent}% of the stock or ` +
    `${formatCount(l.freeUnits)} ${l.freeUnits === 1 ? "unit" : "units"}, new customers ` +
    `together ${newTogether}, one account ${formatCount(l.maxHeldValue)} in value; ` +
    `${formatCount(l.ordersPerMinute)} orders and ${formatCount(l.quickOrderPerMinute)} ` +
    `quick-order lookups a minute; the buyer reminded ${hours(l.holdWarningHours)} before a hold ends`
  );
}

/** `PUT /api/holds/limits` (admin): the order limits, every one of them. */
export const orderLimitsSchema = z.strictObject({
  /** How long an unpaid order holds its stock. */
  holdHours: wholeNumber(orderLimitMessages.holdHours, 1, MAX_HOLD_HOURS),
  /** How long a new customer's (no order paid, no company) does; the shorter of the two counts. */
  newCustomerHoldMinutes: wholeNumber(
    orderLimitMessages.newCustomerHoldMinutes,
    1,
    MAX_NEW_CUSTOMER_HOLD_MINUTES,
  ),
  /** How long before an unpaid order's hold ends its buyer is reminded (once), and Today lists it. */
  holdWarningHours: wholeNumber(orderLimitMessages.holdWarningHours, 1, MAX_HOLD_HOURS),
  /** The share of a product's stock on sale one unpaid line may hold… */
  maxSharePercent: percent(orderLimitMessages.maxSharePercent),
  /** …though a line of up to this many units always may. */
  freeUnits: wholeNumber(orderLimitMessages.freeUnits, 0, MAX_FREE_UNITS),
  /** The share of a product's stock all new customers' unpaid orders may hold together (100: no cap). */
  newCustomerSharePercent: percent(orderLimitMessages.newCustomerSharePercent),
  /** The value, in the store's currency, all of one account's unpaid orders may hold. */
  maxHeldValue: z
    .number({ error: orderLimitMessages.maxHeldValue })
    .gt(0, orderLimitMessages.maxHeldValue)
    .max(MAX_HELD_VALUE, orderLimitMessages.maxHeldValue)
    .refine(hasAtMostTwoDecimals, orderLimitMessages.maxHeldValue),
  /** Orders one account may place a minute. */
  ordersPerMinute: wholeNumber(orderLimitMessages.ordersPerMinute, 1, MAX_ORDERS_PER_MINUTE),
  /** Quick-order part-number lookups one client may make a minute. */
  quickOrderPerMinute: wholeNumber(
    orderLimitMessages.quickOrderPerMinute,
    1,
    MAX_QUICK_ORDER_PER_MINUTE,
  ),
});
export type OrderLimitsInput = z.infer<typeof orderLimitsSchema>;

/** The limits in force: the saved ones, or the store's defaults (`updatedAt` null). */
export const orderLimitsAnswerSchema = z.object({
  holdHours: z.number(),
  newCustomerHoldMinutes: z.number(),
  holdWarningHours: z.number(),
  maxSharePercent: z.number(),
  freeUnits: z.number().int(),
  newCustomerSharePercent: z.number(),
  maxHeldValue: z.number(),
  ordersPerMinute: z.number().int(),
  quickOrderPerMinute: z.number().int(),
  /** When an admin last saved them; null: never, the environment's values are in force. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type OrderLimits = z.infer<typeof orderLimitsAnswerSchema>;
