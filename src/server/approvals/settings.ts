import { eq } from "drizzle-orm";
import type { ApprovalSettings, ApprovalSettingsInput } from "../../contract/approvals";
import type { DbOrTx } from "../db/database";
import { saveSettingsRow, settingsInForce } from "../db/settings-row";
import { approvalSettings } from "./tables";

/**
 * The approval window and the owners' reminder (docs/approvals.md, "The approval window"), as
 * the restocking fee's rule is kept (returns/receiving.ts): one row an admin saves, read where
 * it is used. This file alone writes `approval_settings`.
 */

/** The store's defaults, in force while no admin has saved settings (from the environment). */
export type ApprovalDefaults = Pick<ApprovalSettings, "windowBusinessDays" | "reminderHours">;

/** The settings in force: the saved row, or the defaults (`updatedAt` null). */
export const approvalSettingsOf = (
  tx: DbOrTx,
  defaults: ApprovalDefaults,
): Promise<ApprovalSettings> =>
  settingsInForce(tx, approvalSettings, defaults, (row) => ({
    windowBusinessDays: row.windowBusinessDays,
    reminderHours: row.reminderHours,
  }));

/**
 * How many business days a new order awaiting approval holds its stock: read by the checkout
 * for such an order only, in its transaction (an ordinary order reads nothing more).
 */
export async function approvalWindowDays(tx: DbOrTx, fallback: number): Promise<number> {
  const [row] = await tx
    .select({ days: approvalSettings.windowBusinessDays })
    .from(approvalSettings)
    .where(eq(approvalSettings.id, 1));
  return row?.days ?? fallback;
}

/** Admin: saves the settings (orders placed and reminders sent from now on). */
export async function setApprovalSettings(
  tx: DbOrTx,
  input: ApprovalSettingsInput,
  at: Date,
): Promise<void> {
  await saveSettingsRow(tx, approvalSettings, {
    windowBusinessDays: input.windowBusinessDays,
    reminderHours: input.reminderHours,
    updatedAt: at,
  });
}
