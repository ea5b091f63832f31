import { createHash } from "node:crypto";
import { inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import { claimStatusLabels, openClaimStatuses } from "../../contract/warranty";
import type {
  WarrantyDeadlineSettings,
  WarrantyDeadlineSettingsInput,
} from "../../contract/warranty-deadlines";
import type { AuditActor } from "../audit/service";
import { type Clock, systemClock } from "../clock";
import type { Db } from "../db/database";
import { countingJob, type JobLog } from "../jobs/recurring";
import type { Mailer } from "../mail/mailer";
import { mailAdmins } from "../users/admins";
import { claimedPart, mailClaimant } from "./claim-writes";
import { claimantReminderMail, storeReminderMail, type StoreReminderLine } from "./deadline-mail";
import { deadlineSettingsOf, setDeadlineSettings } from "./deadline-settings";
import { claimDeadline, reminderDue, statusChangedAt } from "./deadlines";
import { warrantyClaims, warrantyDeadlineReminders } from "./tables";
import { summaries } from "./views";

export interface DeadlineOptions {
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
  now?: Clock;
}

/**
 * The deadlines' reminders, once per claim and change of status: the claimant's when their
 * deadline is `reminderDays` away or less (or passed), the store's admins' (one email each, every
 * claim of the run) for the store's. The claim's reminder row is written in the transaction that
 * queues the emails, so a second run, or process, finds it and sends nothing. Resolves to the
 * claims reminded.
 */
export function createWarrantyDeadlines(db: Db, opts: DeadlineOptions) {
  const now = opts.now ?? systemClock;
  return {
    /** Admin: the deadlines' settings in force. */
    settings: (): Promise<WarrantyDeadlineSettings> => deadlineSettingsOf(db),

    /** Admin: saves them (every open claim's deadline from now on), audited. */
    setSettings: (input: WarrantyDeadlineSettingsInput, actor: AuditActor) =>
      setDeadlineSettings(db, input, actor, now()),

    async remindDeadlines(): Promise<number> {
      const at = now();
      return db.transaction(async (tx) => {
        const settings = await deadlineSettingsOf(tx);
        const open = await tx
          .select()
          .from(warrantyClaims)
          .where(inArray(warrantyClaims.status, [...openClaimStatuses]));
        const since = await statusChangedAt(
          tx,
          open.map((c) => c.id),
        );
        const due = open.flatMap((claim) => {
          const from = since.get(claim.id) ?? claim.filedAt;
          const deadline = claimDeadline(claim.status, from, settings, at);
          return deadline && reminderDue(deadline, settings.reminderDays, at)
            ? [{ claim, since: from, deadline }]
            : [];
        });
        if (due.length === 0) return 0;
        // Claimed here: a claim already reminded of this change of status is left out.
        const reminded = await tx
          .insert(warrantyDeadlineReminders)
          .values(
            due.map((d) => ({
              claimId: d.claim.id,
              since: d.since,
              side: d.deadline.side,
              dueOn: d.deadline.dueOn,
              sentAt: at,
            })),
          )
          .onConflictDoUpdate({
            target: warrantyDeadlineReminders.claimId,
            set: {
              since: sql`excluded.since`,
              side: sql`excluded.side`,
              dueOn: sql`excluded.due_on`,
              sentAt: sql`excluded.sent_at`,
            },
            setWhere: sql`${warrantyDeadlineReminders.since} <> excluded.since`,
          })
          .returning({ claimId: warrantyDeadlineReminders.claimId });
        const toSend = due.filter((d) => reminded.some((r) => r.claimId === d.claim.id));
        if (!opts.mailer) return toSend.length;
        const store: (StoreReminderLine & { key: string })[] = [];
        for (const d of toSend) {
          if (d.deadline.side === "claimant") {
            await mailClaimant(
              tx,
              opts,
              d.claim,
              `deadline:${d.claim.id}:${d.since.getTime()}`,
              claimantReminderMail,
              null,
              {
                dueOn: d.deadline.dueOn,
                overdue: d.deadline.overdue,
                partBack: d.claim.status === "part_requested",
              },
            );
          } else {
            const [s] = await summaries(tx, [d.claim]);
            store.push({
              number: s!.number,
              part: claimedPart(d.claim, s!),
              status: claimStatusLabels[d.claim.status],
              dueOn: d.deadline.dueOn,
              overdue: d.deadline.overdue,
              key: `${d.claim.id}:${d.since.getTime()}`,
            });
          }
        }
        if (store.length > 0) {
          const keys = createHash("sha256")
            .update(store.map((c) => c.key).join(","))
            .digest("hex")
            .slice(0, 32);
          await mailAdmins(
            tx,
            opts.mailer,
            (admin) =>
              storeReminderMail({ name: admin.name, claims: store, publicUrl: opts.publicUrl }),
            (admin) => `warranty-deadlines:${keys}:${admin.id}`,
          );
        }
        return toSend.length;
      });
    },
  };
}

export type WarrantyDeadlines = ReturnType<typeof createWarrantyDeadlines>;

export const WARRANTY_DEADLINE_QUEUE = "warranty-deadline-reminders";
/** Hourly: a reminder is a day's matter. */
export const DEADLINE_REMINDER_EVERY_MS = 3_600_000;

/** The deadlines' reminders, a recurring job (jobs/recurring.ts), once across the processes. */
export function deadlineReminderJob(
  reminders: Pick<WarrantyDeadlines, "remindDeadlines">,
  log: JobLog,
) {
  return countingJob(
    WARRANTY_DEADLINE_QUEUE,
    { everyMs: DEADLINE_REMINDER_EVERY_MS, name: "warranty deadline reminders", log },
    () => reminders.remindDeadlines(),
    (n) => `reminded the waiting side of ${n} warranty claim(s)`,
  );
}
