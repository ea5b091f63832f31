import {
  lowStockEmailState,
  type LowStockEmail,
  type LowStockEmailInput,
} from "../../contract/admin-home";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { saveSettingsRow, settingsInForce } from "../db/settings-row";
import { lowStockEmailSettings } from "./tables";

/**
 * The daily low-stock email as an admin sets it on Today (docs/admin-home.md): whether it goes
 * and from which hour (UTC). One row an admin saves, or the environment's values (`defaults`)
 * until then; the job reads it at each run. This file alone writes `low_stock_email_settings`.
 */
export function createLowStockEmailSettings(db: Db, defaults: LowStockEmailInput) {
  /** The settings in force: the saved row, or the environment's (`updatedAt` null). */
  const inForce = (tx: DbOrTx = db): Promise<LowStockEmail> =>
    settingsInForce(tx, lowStockEmailSettings, defaults, (row) => ({
      enabled: row.enabled,
      hourUtc: row.hourUtc,
    }));

  return {
    inForce,

    /** Admin: saves the settings (the next run of the job on), audited. */
    async save(input: LowStockEmailInput, actor: AuditActor): Promise<LowStockEmail> {
      return db.transaction(async (tx) => {
        await saveSettingsRow(tx, lowStockEmailSettings, { ...input, updatedAt: new Date() });
        await recordAdminAction(tx, {
          actor,
          action: "inventory.low-stock-email",
          target: { type: "store_settings", id: "low-stock-email" },
          summary: `Set the low-stock email: ${lowStockEmailState(input)}`,
        });
        return inForce(tx);
      });
    },
  };
}

export type LowStockEmailSettings = ReturnType<typeof createLowStockEmailSettings>;
