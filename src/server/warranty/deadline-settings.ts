import {
  WARRANTY_DEADLINE_DEFAULTS,
  type WarrantyDeadlineSettings,
  type WarrantyDeadlineSettingsInput,
} from "../../contract/warranty-deadlines";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { saveSettingsRow, settingsInForce } from "../db/settings-row";
import { warrantyDeadlineSettings } from "./tables";

/**
 * The claims' deadlines and reminders (docs/warranty.md "Deadlines and reminders"), as the
 * approval window is kept (approvals/settings.ts): one row an admin saves, read where it is
 * used. This file alone writes `warranty_deadline_settings`.
 */

/** The settings in force: the saved row, or the store's defaults (`updatedAt` null). */
export const deadlineSettingsOf = (tx: DbOrTx): Promise<WarrantyDeadlineSettings> =>
  settingsInForce(tx, warrantyDeadlineSettings, WARRANTY_DEADLINE_DEFAULTS, (row) => ({
    claimantDays: row.claimantDays,
    storeDays: row.storeDays,
    reminderDays: row.reminderDays,
  }));

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/** Admin: saves the settings (every open claim's deadline from now on), audited. */
export async function setDeadlineSettings(
  db: Db,
  input: WarrantyDeadlineSettingsInput,
  actor: AuditActor,
  at: Date,
): Promise<WarrantyDeadlineSettings> {
  await db.transaction(async (tx) => {
    await saveSettingsRow(tx, warrantyDeadlineSettings, { ...input, updatedAt: at });
    await recordAdminAction(tx, {
      actor,
      action: "warranty.deadlines",
      target: { type: "warranty_settings", id: "deadlines" },
      summary: `Set the warranty claims' deadlines: the claimant ${days(input.claimantDays)}, the store ${days(input.storeDays)}, reminders ${days(input.reminderDays)} before`,
    });
  });
  return deadlineSettingsOf(db);
}
