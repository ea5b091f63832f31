import {
  returnWindowWords,
  type ReturnWindows,
  type ReturnWindowsInput,
} from "../../contract/returns";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { saveSettingsRow, settingsInForce } from "../db/settings-row";
import { returnWindowSettings } from "./tables";

/**
 * The return windows (docs/returns.md "The return windows"), as the restocking fee's rule is kept
 * (receiving.ts): one row an admin saves, read where it is used. This file alone writes
 * `return_window_settings`.
 */

/** The store's defaults, in force while no admin has saved windows (from the environment). */
export type ReturnWindowDefaults = Pick<ReturnWindows, "days" | "coreDays">;

/** The windows in force: the saved row, or the defaults (`updatedAt` null). */
export const returnWindowsOf = (
  tx: DbOrTx,
  defaults: ReturnWindowDefaults,
): Promise<ReturnWindows> =>
  settingsInForce(tx, returnWindowSettings, defaults, (row) => ({
    days: row.days,
    coreDays: row.coreDays,
  }));

/**
 * Admin: saves the windows, audited. Every order's window is counted from its lines' shipment
 * with the days in force when it is read: a longer window reopens an order that had closed.
 */
export async function setReturnWindows(
  db: Db,
  input: ReturnWindowsInput,
  actor: AuditActor,
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await saveSettingsRow(tx, returnWindowSettings, { ...input, updatedAt: at });
    await recordAdminAction(tx, {
      actor,
      action: "return.windows",
      target: { type: "return", id: "windows" },
      summary: `Set the return windows: ${returnWindowWords(input)}`,
    });
  });
}
