import { and, inArray, isNotNull, max } from "drizzle-orm";
import { claimWaitsOn, isOpenClaim, type ClaimStatus } from "../../contract/warranty";
import type { ClaimDeadline, WarrantyDeadlineSettings } from "../../contract/warranty-deadlines";
import type { DbOrTx } from "../db/database";
import { deadlineSettingsOf } from "./deadline-settings";
import { dayOf } from "./eligibility";
import { warrantyClaimEvents, type warrantyClaims } from "./tables";

/*
 * A claim's deadline (docs/warranty.md "Deadlines and reminders"): the side whose move an open
 * claim waits for (`claimWaitsOn`) has the settings' days for it, counted in calendar days (UTC)
 * from the claim's last change of status; the reminder goes out the settings' days before.
 */

const DAY_MS = 86_400_000;

/** `day` (`2026-12-01`) moved by `n` days. */
export const addDays = (day: string, n: number) =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/**
 * The deadline of a claim in `status` since `since` (its last change of status), `now` being
 * now: null once decided. Overdue from the day after the last day.
 */
export function claimDeadline(
  status: ClaimStatus,
  since: Date,
  settings: Pick<WarrantyDeadlineSettings, "claimantDays" | "storeDays">,
  now: Date,
): ClaimDeadline {
  if (!isOpenClaim(status)) return null;
  const side = claimWaitsOn[status];
  const dueOn = addDays(
    dayOf(since),
    side === "claimant" ? settings.claimantDays : settings.storeDays,
  );
  return { side, dueOn, overdue: dayOf(now) > dueOn };
}

/** Whether a deadline's reminder is due `now`: from `reminderDays` before its last day. */
export const reminderDue = (
  deadline: NonNullable<ClaimDeadline>,
  reminderDays: number,
  now: Date,
) => dayOf(now) >= addDays(deadline.dueOn, -reminderDays);

/**
 * When each claim last changed status: its latest history entry with a status (filing writes
 * one, so every claim has one; messages that change nothing do not count).
 */
export async function statusChangedAt(tx: DbOrTx, claimIds: string[]): Promise<Map<string, Date>> {
  if (claimIds.length === 0) return new Map();
  const rows = await tx
    .select({ claimId: warrantyClaimEvents.claimId, at: max(warrantyClaimEvents.at) })
    .from(warrantyClaimEvents)
    .where(
      and(inArray(warrantyClaimEvents.claimId, claimIds), isNotNull(warrantyClaimEvents.status)),
    )
    .groupBy(warrantyClaimEvents.claimId);
  return new Map(rows.flatMap((r) => (r.at ? [[r.claimId, r.at] as const] : [])));
}

/** Each claim's deadline by its id, with the settings in force (views.ts puts it on the wire). */
export async function deadlinesOf(
  tx: DbOrTx,
  rows: Pick<typeof warrantyClaims.$inferSelect, "id" | "status" | "filedAt">[],
  now: Date,
): Promise<Map<string, ClaimDeadline>> {
  const open = rows.filter((r) => isOpenClaim(r.status));
  if (open.length === 0) return new Map();
  // One after the other: `tx` may be a transaction's one connection.
  const settings = await deadlineSettingsOf(tx);
  const since = await statusChangedAt(
    tx,
    open.map((r) => r.id),
  );
  return new Map(
    open.map((r) => [r.id, claimDeadline(r.status, since.get(r.id) ?? r.filedAt, settings, now)]),
  );
}
