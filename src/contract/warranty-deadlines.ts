import { z } from "zod";
import { DEFAULTS_IN_FORCE, wholeNumber } from "./common";
import { dayWords } from "./calendar";

// A warranty claim's deadlines and reminders (docs/warranty.md "Deadlines and reminders"): each
// side has days to make its move, counted from the claim's last change of status, and is
// reminded before they end. The days are an admin's settings (Dashboard → Warranty claims).

/** Whose move an open claim waits for (`claimWaitsOn` in warranty.ts). */
export const deadlineSides = ["claimant", "store"] as const;
export type DeadlineSide = (typeof deadlineSides)[number];

/** The store's defaults, in force while no admin has saved settings. */
export const WARRANTY_DEADLINE_DEFAULTS = {
  /** Days the claimant has to answer a question or send the part back. */
  claimantDays: 14,
  /** Days the store has to act: a question, the inspection, the decision. */
  storeDays: 5,
  /** Days before a deadline its reminder is emailed. */
  reminderDays: 2,
} as const;
export const MAX_DEADLINE_DAYS = 90;

/** What a person reads about the settings and a claim's deadline. */
export const warrantyDeadlineMessages = {
  claimantDays: `The claimant's days are a whole number from 1 to ${MAX_DEADLINE_DAYS}`,
  storeDays: `The store's days are a whole number from 1 to ${MAX_DEADLINE_DAYS}`,
  reminderDays: `The reminder is a whole number of days from 0 to ${MAX_DEADLINE_DAYS - 1}`,
  /** A reminder must come after the status changed: fewer days before than either side has. */
  reminderBeforeDeadline: (days: number) =>
    `The reminder must come after the claim changes: fewer than ${days} ${days === 1 ? "day" : "days"} before the deadline`,
  /** Beside the form while no admin has saved settings. */
  defaultsInForce: DEFAULTS_IN_FORCE,
  /** What the admin is told once the settings are saved. */
  saved: (s: WarrantyDeadlineSettingsInput) =>
    `Deadlines saved: the claimant ${days(s.claimantDays)}, the store ${days(s.storeDays)}, reminders ${days(s.reminderDays)} before`,
} as const;

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/** `PUT /api/warranty/settings` (admin): each side's days, and the reminder's lead. */
export const warrantyDeadlineSettingsSchema = z
  .strictObject({
    claimantDays: wholeNumber(warrantyDeadlineMessages.claimantDays, 1, MAX_DEADLINE_DAYS),
    storeDays: wholeNumber(warrantyDeadlineMessages.storeDays, 1, MAX_DEADLINE_DAYS),
    reminderDays: wholeNumber(warrantyDeadlineMessages.reminderDays, 0, MAX_DEADLINE_DAYS - 1),
  })
  .superRefine((s, ctx) => {
    const shortest = Math.min(s.claimantDays, s.storeDays);
    if (s.reminderDays >= shortest) {
      ctx.addIssue({
        code: "custom",
        path: ["reminderDays"],
        message: warrantyDeadlineMessages.reminderBeforeDeadline(shortest),
      });
    }
  });
export type WarrantyDeadlineSettingsInput = z.infer<typeof warrantyDeadlineSettingsSchema>;

/** The settings in force: the saved ones, or the store's defaults (`updatedAt` null). */
export const warrantyDeadlineSettingsAnswerSchema = z.object({
  claimantDays: z.number().int(),
  storeDays: z.number().int(),
  reminderDays: z.number().int(),
  /** When an admin last saved them; null: never, the defaults are in force. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type WarrantyDeadlineSettings = z.infer<typeof warrantyDeadlineSettingsAnswerSchema>;

/**
 * An open claim's deadline: whose move it waits for, the last day for it (UTC), and whether that
 * day has passed. Null for a decided claim.
 */
export const claimDeadlineSchema = z
  .object({
    side: z.enum(deadlineSides),
    /** The last day (`2026-12-14`), in UTC. */
    dueOn: z.iso.date(),
    overdue: z.boolean(),
  })
  .nullable();
export type ClaimDeadline = z.infer<typeof claimDeadlineSchema>;

/** A day (`2026-12-14`) in the emails' words: "14 Dec 2026". */
export const deadlineDayWords = dayWords;

/** What the claimant has to do, by the claim's status (warranty.ts `claimStatuses`). */
const claimantMove = (status: string) =>
  status === "part_requested" ? "send the part back" : "answer";

/**
 * A claim's deadline in words, as `viewer` reads it: "Waiting for you: answer by 14 Dec 2026",
 * "Waiting for the store: decision due by 9 Dec 2026"; "Overdue: …" once the day has passed.
 */
export function deadlineWords(
  deadline: NonNullable<ClaimDeadline>,
  status: string,
  viewer: DeadlineSide,
): string {
  const on = deadlineDayWords(deadline.dueOn);
  const mine = deadline.side === viewer;
  const words =
    deadline.side === "claimant"
      ? mine
        ? `Waiting for you: ${claimantMove(status)} by ${on}`
        : `Waiting for the claimant: ${claimantMove(status)} by ${on}`
      : mine
        ? `Waiting for you: decision due by ${on}`
        : `Waiting for the store: decision due by ${on}`;
  return deadline.overdue ? `Overdue. ${words}` : words;
}
