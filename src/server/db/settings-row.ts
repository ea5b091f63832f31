import { eq } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./database";

/**
 * Settings an admin saves, kept in a table of one row (`id` 1, checked by the table): the approval
 * window, the restocking fee, the warranty claims' deadlines. No row: the store's defaults.
 */
export type SettingsTable = PgTable & { id: PgColumn };

/** The saved row, or undefined while no admin has saved the settings. */
export async function settingsRowOf<T extends SettingsTable>(
  tx: DbOrTx,
  table: T,
): Promise<T["$inferSelect"] | undefined> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, 1));
  return row as T["$inferSelect"] | undefined;
}

/**
 * The settings in force, as an admin reads them: the saved row's values (`valuesOf`) and when
 * they were saved, or the store's `defaults` with `updatedAt` null while none are saved.
 */
export async function settingsInForce<
  T extends SettingsTable & { $inferSelect: { updatedAt: Date } },
  V extends object,
>(
  tx: DbOrTx,
  table: T,
  defaults: V,
  valuesOf: (row: T["$inferSelect"]) => V,
): Promise<V & { updatedAt: string | null }> {
  const row = await settingsRowOf(tx, table);
  return row
    ? { ...valuesOf(row), updatedAt: row.updatedAt.toISOString() }
    : { ...defaults, updatedAt: null };
}

/** Saves the settings: the one row written, or rewritten with these values. */
export async function saveSettingsRow<T extends SettingsTable>(
  tx: DbOrTx,
  table: T,
  values: PgUpdateSetSource<T>,
): Promise<void> {
  await tx
    .insert(table)
    .values({ id: 1, ...values } as PgInsertValue<T>)
    .onConflictDoUpdate({ target: table.id, set: values });
}
