import { plural } from "./count";
import { z } from "zod";
import { orderLineSchema, orderSchema } from "./orders";
import { DEFAULTS_IN_FORCE, pagingQuerySchema, wholeNumber } from "./common";
import { text } from "./text";

/**
 * Approvals (docs/approvals.md): a company buyer's order over a spending limit waits, holding its
 * stock, until an owner of the company approves it (it becomes an ordinary unpaid order) or
 * declines it (it is cancelled). Money in currency units, as everywhere on the wire.
 */

export const approvalReasons = ["order_limit", "monthly_limit"] as const;
export type ApprovalReason = (typeof approvalReasons)[number];
export const approvalDecisions = ["approved", "declined"] as const;
export type ApprovalDecision = (typeof approvalDecisions)[number];

export const APPROVAL_NOTE_MAX = 500;

export const approvalMessages = {
  onlyOwners: "Only an owner of the company can approve or decline its orders",
  adminsReadOnly: "Admins see the orders awaiting approval; only the company's owners decide them",
  notFound: "Your company has no order with this number",
  alreadyApproved: "This order was approved already",
  alreadyDeclined: "This order was declined already",
  notAwaiting: (status: string) => `This order is not awaiting approval (it is ${status})`,
  ownOrder: "You cannot decide your own order: another owner of your company must",
  payAfterApproval:
    "This order is awaiting approval by an owner of your company: you can pay once it is approved",
  declined: "This order was declined by your company, so it cannot be paid",
  noteTooLong: `The note must be ${APPROVAL_NOTE_MAX} characters or shorter`,
  /** An order over the limit with nobody to approve it (no owner but the buyer). */
  noApprover: (reason: string) =>
    `This order is ${reason}, and your company has no other owner to approve it: order less, or ask us to change your limit`,
  /** Why the order waits, for people: "over the per-order limit of $500.00". */
  reason: (reason: ApprovalReason, limit: string) =>
    reason === "order_limit"
      ? `over the per-order limit of ${limit}`
      : `over the monthly limit of ${limit}`,
} as const;

export const approvalOrderParamsSchema = z.object({
  orderId: z.uuid({ message: "Malformed order id" }),
});

/** Approve or decline, with an optional note for the buyer. */
export const approvalDecisionSchema = z.strictObject({
  note: text({ message: "The note must be text" }, { multiline: true })
    .trim()
    .max(APPROVAL_NOTE_MAX, approvalMessages.noteTooLong)
    .optional(),
});
export type ApprovalDecisionInput = z.infer<typeof approvalDecisionSchema>;

/** One order awaiting approval, as owners (and admins, read only) see it. */
export const approvalSchema = z.object({
  orderId: z.uuid(),
  /** `PW-100234` */
  orderNumber: z.string(),
  companyId: z.uuid(),
  companyName: z.string(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  reason: z.enum(approvalReasons),
  /** The limit the order went over. */
  limit: z.number(),
  items: z.array(orderLineSchema),
  subtotal: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  currency: z.string(),
  poReference: z.string().nullable(),
  requestedAt: z.iso.datetime({ offset: true }),
  /** The stock is held until then; undecided by then, the order is cancelled. */
  holdExpiresAt: z.iso.datetime({ offset: true }),
});
export type Approval = z.infer<typeof approvalSchema>;

export const approvalOutcomeSchema = z.object({
  decision: z.enum(approvalDecisions),
  note: z.string().nullable(),
  order: orderSchema,
});
export type ApprovalOutcome = z.infer<typeof approvalOutcomeSchema>;

/** The approvals list: paged, searchable by buyer, email, company, order number, part or PO. */
export const approvalListQuerySchema = pagingQuerySchema.extend({
  q: text().trim().max(100).optional(),
});
export type ApprovalListQuery = z.infer<typeof approvalListQuerySchema>;

/**
 * The approval window and the owners' reminder (docs/approvals.md, "The approval window"): set by
 * an admin on the Approvals page. Until one is saved, the store's defaults are in force
 * (APPROVAL_WINDOW_BUSINESS_DAYS and APPROVAL_REMINDER_HOURS, which default to these).
 */
export const APPROVAL_SETTINGS_DEFAULTS = { windowBusinessDays: 3, reminderHours: 24 } as const;
export const APPROVAL_WINDOW_MAX_BUSINESS_DAYS = 30;

export const approvalSettingsMessages = {
  window: `The approval window is a whole number of business days from 1 to ${APPROVAL_WINDOW_MAX_BUSINESS_DAYS}`,
  reminder: "The reminder is a whole number of hours, at least 1",
  /** A reminder at or past the window's end (a business day is at least 24 hours). */
  reminderBeforeEnd: (days: number) =>
    `The reminder must come before the window ends: fewer than ${days * 24} hours for ${plural(days, "business day")}`,
  /** Beside the form while no admin has saved settings. */
  defaultsInForce: DEFAULTS_IN_FORCE,
  /** What the admin is told once the settings are saved. */
  saved: (s: { windowBusinessDays: number; reminderHours: number }) =>
    `Approval settings saved: ${plural(s.windowBusinessDays, "business day")}, owners reminded ${plural(s.reminderHours, "hour")} before the end`,
} as const;

const windowDays = wholeNumber(
  approvalSettingsMessages.window,
  1,
  APPROVAL_WINDOW_MAX_BUSINESS_DAYS,
);

/** What an admin saves: the window in business days, and the reminder, before its end, in hours. */
export const approvalSettingsSchema = z
  .strictObject({
    windowBusinessDays: windowDays,
    reminderHours: z
      .number({ error: approvalSettingsMessages.reminder })
      .int(approvalSettingsMessages.reminder)
      .min(1, approvalSettingsMessages.reminder),
  })
  .superRefine((s, ctx) => {
    if (s.reminderHours >= s.windowBusinessDays * 24) {
      ctx.addIssue({
        code: "custom",
        path: ["reminderHours"],
        message: approvalSettingsMessages.reminderBeforeEnd(s.windowBusinessDays),
      });
    }
  });
export type ApprovalSettingsInput = z.infer<typeof approvalSettingsSchema>;

/**
 * The settings in force: the saved ones, or the store's defaults (`updatedAt` null) while none
 * are saved. The defaults come from the environment, so they are not held to the form's rules.
 */
export const approvalSettingsAnswerSchema = z.object({
  windowBusinessDays: z.number().int(),
  reminderHours: z.number(),
  /** When an admin last saved them; null: never, the defaults are in force. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ApprovalSettings = z.infer<typeof approvalSettingsAnswerSchema>;
