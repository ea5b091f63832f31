import {
  orderLimitWords,
  type OrderLimits,
  type OrderLimitsInput,
} from "../../contract/order-limits";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { KeptRead } from "../changes/kept-read";
import type { HoldLimits } from "../config";
import type { Db } from "../db/database";
import { saveSettingsRow, settingsInForce, settingsRowOf } from "../db/settings-row";
import { orderLimitSettings } from "./tables";

/**
 * The order limits (docs/ordering.md "Holds that cannot be abused"): how long an unpaid order
 * holds its stock, how much of it one account may hold, how often it may order. One row an admin
 * saves, or the environment's values until then. This file alone writes `order_limit_settings`.
 */

/** The limits as the order paths use them: in milliseconds, shares and cents. */
export interface OrderRules {
  /** How long an unpaid order holds its stock (a new customer's: `limits.newCustomerHoldMs`). */
  holdMs: number;
  limits: HoldLimits;
  /** Quick-order lookups one client may make a minute. */
  quickOrderPerMinute: number;
  /** How long before an unpaid order's hold ends its buyer is reminded (the hold sweeper). */
  holdWarningMs: number;
}

/** Where the order paths read the rules in force: `get()` at the start of each placement. */
export interface OrderRulesSource {
  get(): Promise<OrderRules>;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * Rules that never change (a test's): quick order's lookups and the reminder as the
 * environment's defaults.
 */
export const fixedOrderRules = (
  rules: Omit<OrderRules, "quickOrderPerMinute" | "holdWarningMs"> & Partial<OrderRules>,
): OrderRulesSource => {
  const fixed = Promise.resolve({ quickOrderPerMinute: 60, holdWarningMs: 12 * HOUR_MS, ...rules });
  return { get: () => fixed };
};

/** The rules of limits as an admin sets them. */
export function rulesOf(l: OrderLimitsInput): OrderRules {
  return {
    holdMs: l.holdHours * HOUR_MS,
    limits: {
      maxShare: l.maxSharePercent / 100,
      freeUnits: l.freeUnits,
      maxValueCents: Math.round(l.maxHeldValue * 100),
      perMinute: l.ordersPerMinute,
      newCustomerHoldMs: l.newCustomerHoldMinutes * MINUTE_MS,
      newCustomerShare: l.newCustomerSharePercent / 100,
    },
    quickOrderPerMinute: l.quickOrderPerMinute,
    holdWarningMs: l.holdWarningHours * HOUR_MS,
  };
}

/** The limits as an admin reads them, of rules (the environment's defaults). */
export function limitsOf(r: OrderRules): OrderLimitsInput {
  // A share of 0.57 reads 57, not 56.99999999999999.
  const percent = (share: number) => Math.round(share * 10_000) / 100;
  return {
    holdHours: r.holdMs / HOUR_MS,
    newCustomerHoldMinutes: r.limits.newCustomerHoldMs / MINUTE_MS,
    holdWarningHours: r.holdWarningMs / HOUR_MS,
    maxSharePercent: percent(r.limits.maxShare),
    freeUnits: r.limits.freeUnits,
    newCustomerSharePercent: percent(r.limits.newCustomerShare),
    maxHeldValue: r.limits.maxValueCents / 100,
    ordersPerMinute: r.limits.perMinute,
    quickOrderPerMinute: r.quickOrderPerMinute,
  };
}

const valuesOf = (row: typeof orderLimitSettings.$inferSelect): OrderLimitsInput => ({
  holdHours: row.holdHours,
  newCustomerHoldMinutes: row.newCustomerHoldMinutes,
  holdWarningHours: row.holdWarningHours,
  maxSharePercent: row.maxSharePercent,
  freeUnits: row.freeUnits,
  newCustomerSharePercent: row.newCustomerSharePercent,
  maxHeldValue: row.maxHeldCents / 100,
  ordersPerMinute: row.ordersPerMinute,
  quickOrderPerMinute: row.quickOrderPerMinute,
});

/**
 * The order limits of the store: `rules` for the order paths, kept in memory while the change bus
 * hears (every save sends NOTIFY `order-limits`, migration 0098: subscribe `rules` to it), read
 * from the database on every call otherwise; and the admin's read and save.
 */
export function createOrderLimits(db: Db, defaults: OrderRules) {
  const rules = new KeptRead<OrderRules>(async () => {
    const row = await settingsRowOf(db, orderLimitSettings);
    return row ? rulesOf(valuesOf(row)) : defaults;
  });
  const read = (): Promise<OrderLimits> =>
    settingsInForce(db, orderLimitSettings, limitsOf(defaults), valuesOf);

  return {
    rules,
    read,

    /** Admin: saves the limits, audited; every placement from now on is decided by them. */
    async set(input: OrderLimitsInput, actor: AuditActor): Promise<OrderLimits> {
      await db.transaction(async (tx) => {
        const { maxHeldValue, ...rest } = input;
        await saveSettingsRow(tx, orderLimitSettings, {
          ...rest,
          maxHeldCents: Math.round(maxHeldValue * 100),
          updatedAt: new Date(),
        });
        await recordAdminAction(tx, {
          actor,
          action: "order.limits",
          target: { type: "order", id: "limits" },
          summary: `Set the order limits: ${orderLimitWords(input)}`,
        });
      });
      // This process does not wait for its own NOTIFY.
      rules.invalidate();
      return read();
    },
  };
}

export type OrderLimitsService = ReturnType<typeof createOrderLimits>;
