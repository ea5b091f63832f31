import { z } from "zod";
import { DEFAULTS_IN_FORCE, nestedIdParams, pagingQuerySchema, wholeNumber } from "./common";
import { namedOrderLineFields, soldProductFields } from "./orders";
import { photoMessages, photoSchema, photoTypes } from "./photos";
import { text } from "./text";
import { orderVehicleSchema } from "./vehicles";

/** Why a customer sends a part back (docs/returns.md). */
export const returnReasons = [
  "did_not_fit",
  "damaged",
  "wrong_part",
  "no_longer_needed",
  /** The part failed in use (a warranty case). */
  "defective",
  /** The old part (the core) of a line with a core deposit, for the deposit (docs/core-charges.md). */
  "core",
] as const;
export type ReturnReason = (typeof returnReasons)[number];
export const returnReasonLabels: Record<ReturnReason, string> = {
  did_not_fit: "Did not fit my vehicle",
  damaged: "Arrived damaged",
  wrong_part: "Wrong part sent",
  no_longer_needed: "No longer needed",
  defective: "Defective / failed in use",
  core: "Core return: the old part, for its deposit",
};

export const returnStatuses = [
  "requested",
  "approved",
  "refused",
  "received",
  /** A warranty claim's part, received: its claim's decision says whether it refunds. */
  "inspecting",
  "refund_failed",
  "refunded",
  /** Received, and nothing was owed back (only wrong parts, or nothing, arrived). */
  "closed",
] as const;
export type ReturnStatus = (typeof returnStatuses)[number];
export const returnStatusLabels: Record<ReturnStatus, string> = {
  requested: "Requested",
  approved: "Approved: send the parts back",
  refused: "Refused",
  received: "Received, refund under way",
  inspecting: "Received: decided with its warranty claim",
  refund_failed: "Received, refund failed",
  refunded: "Refunded",
  closed: "Received, nothing to refund",
};

/** A return's human number: `RMA-10023` (the id stays the uuid). */
export const rmaNumber = (n: number) => `RMA-${n}`;

/** What an admin found in the parcel, per line (docs/returns.md, "Receiving"). */
export const receivedConditions = ["as_new", "damaged", "used", "wrong_part"] as const;
export type ReceivedCondition = (typeof receivedConditions)[number];
export const receivedConditionLabels: Record<ReceivedCondition, string> = {
  as_new: "As new",
  damaged: "Damaged",
  used: "Used",
  wrong_part: "Wrong part",
};

/** The conditions a restocking fee may apply to (a wrong part refunds nothing at all). */
export const feeConditions = ["as_new", "damaged", "used"] as const;
export type FeeCondition = (typeof feeConditions)[number];

/**
 * The reasons where the customer chose to send the part back: only these may carry a restocking
 * fee. A part that arrived damaged, was the wrong one or failed in use is the store's to take back.
 */
export const feeableReasons: readonly ReturnReason[] = ["did_not_fit", "no_longer_needed"];

/** The admin's restocking-fee rule: a percent of what is refunded, for the conditions chosen. */
export const restockingFeeSchema = z.strictObject({
  percent: wholeNumber("The fee is a whole percent from 0 to 100", 0, 100),
  conditions: z
    .array(z.enum(feeConditions))
    .max(feeConditions.length)
    .refine((c) => new Set(c).size === c.length, "Each condition once"),
});
export type RestockingFee = z.infer<typeof restockingFeeSchema>;

/** The longest return window an admin may set, in days (ten years, as the environment's). */
export const MAX_RETURN_WINDOW_DAYS = 3650;

const windowWords = (n: number) =>
  n === 0 ? "not returnable" : `${n} ${n === 1 ? "day" : "days"} after shipping`;

/** The windows in words: "parts 30 days after shipping, cores not returnable". */
export const returnWindowWords = (w: { days: number; coreDays: number }) =>
  `parts ${windowWords(w.days)}, cores ${windowWords(w.coreDays)}`;

/** What an admin reads about the return windows. */
export const returnWindowMessages = {
  days: `The return window is a whole number of days from 0 to ${MAX_RETURN_WINDOW_DAYS}`,
  coreDays: `The core return window is a whole number of days from 0 to ${MAX_RETURN_WINDOW_DAYS}`,
  /** Beside the form while no admin has saved the windows. */
  defaultsInForce: DEFAULTS_IN_FORCE,
  /** What the admin is told once the windows are saved. */
  saved: (w: { days: number; coreDays: number }) => `Return windows saved: ${returnWindowWords(w)}`,
} as const;

/**
 * `PUT /api/returns/windows` (admin): how many days after a line ships its customer may ask to
 * return it (`days`), and send back its old part for the core deposit (`coreDays`); 0: none.
 */
export const returnWindowsSchema = z.strictObject({
  days: wholeNumber(returnWindowMessages.days, 0, MAX_RETURN_WINDOW_DAYS),
  coreDays: wholeNumber(returnWindowMessages.coreDays, 0, MAX_RETURN_WINDOW_DAYS),
});
export type ReturnWindowsInput = z.infer<typeof returnWindowsSchema>;

/** The windows in force: the saved ones, or the store's defaults (`updatedAt` null). */
export const returnWindowsAnswerSchema = z.object({
  days: z.number().int(),
  coreDays: z.number().int(),
  /** When an admin last saved them; null: never, the environment's defaults are in force. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ReturnWindows = z.infer<typeof returnWindowsAnswerSchema>;

/**
 * What one received line refunds (docs/returns.md, "Receiving"), in cents: its share of what was
 * asked for (net and tax) for the units that arrived; a wrong part nothing; the restocking fee
 * keeps its percent of net and tax for the conditions the rule names, on returns for the
 * customer's own reasons only. Only units back as new go on sale again, never cores. The server
 * decides with it; the receive dialog shows the same figures before the admin confirms.
 */
export function lineReceipt(
  reason: ReturnReason,
  asked: { qty: number; netCents: number; taxCents: number },
  received: { qty: number; condition: ReceivedCondition },
  fee: RestockingFee,
) {
  const share = (cents: number) =>
    received.qty === asked.qty ? cents : Math.round((cents * received.qty) / asked.qty);
  const refundable = received.condition !== "wrong_part" && received.qty > 0;
  const net = refundable ? share(asked.netCents) : 0;
  const tax = refundable ? share(asked.taxCents) : 0;
  const percent =
    feeableReasons.includes(reason) &&
    (fee.conditions as readonly string[]).includes(received.condition)
      ? fee.percent
      : 0;
  const feeNet = Math.round((net * percent) / 100);
  const feeTax = Math.round((tax * percent) / 100);
  return {
    refundNetCents: net - feeNet,
    refundTaxCents: tax - feeTax,
    feeCents: feeNet + feeTax,
    restock: reason !== "core" && received.condition === "as_new" ? received.qty : 0,
  };
}

/** Receiving a return: per line, how many arrived and in what condition. */
export const receiveReturnSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line: z.number().int().min(1).max(1000),
        qty: z
          .number({ error: "How many arrived: a whole number" })
          .int("How many arrived: a whole number")
          .min(0, "How many arrived: 0 or more")
          .max(100_000),
        condition: z.enum(receivedConditions),
      }),
    )
    .min(1)
    .max(200),
  /**
   * The refund the admin was shown and confirmed (currency units): when the server's differs (the
   * fee rule changed meanwhile) the receipt is refused with 409 and the new amount.
   */
  expectedRefund: z.number().min(0).max(100_000_000).optional(),
});
export type ReceiveReturnInput = z.infer<typeof receiveReturnSchema>;

export const returnRequestSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        /** The order line (1 = the first). */
        line: z.number().int().min(1).max(1000),
        qty: z.number().int().min(1).max(100_000),
      }),
    )
    .min(1, "Choose at least one line to return")
    .max(200),
  reason: z.enum(returnReasons),
  /**
   * The vehicle the part was for (did_not_fit): "2012 VW Golf 1.6 TDI". Left out, a "did not
   * fit" return takes the vehicle its lines were bought for, when they were.
   */
  vehicle: text().trim().max(200).optional(),
  /**
   * The vehicle picked from My garage or the vehicle selector (did_not_fit): the catalog's ids,
   * named by the server. Wins over `vehicle`, which stays for a vehicle the catalog does not list.
   */
  vehicleChoice: orderVehicleSchema.optional(),
  note: text(undefined, { multiline: true }).trim().max(2000).optional(),
});
export type ReturnRequestInput = z.infer<typeof returnRequestSchema>;

export const returnDecisionSchema = z.strictObject({
  decision: z.enum(["approve", "refuse"]),
  /** Refusing: why (required). Approving: extra words for the instructions (optional). */
  message: text(undefined, { multiline: true }).trim().max(2000).optional(),
});
export type ReturnDecision = z.infer<typeof returnDecisionSchema>;

export const returnLineSchema = z.object({
  line: z.number().int(),
  ...soldProductFields,
  qty: z.number().int(),
  /** What the line refunds, net and its tax (currency units). */
  net: z.number(),
  tax: z.number(),
  /** What arrived, once received: quantity, condition, the fee kept and what is refunded. */
  received: z
    .object({
      qty: z.number().int(),
      condition: z.enum(receivedConditions),
      fee: z.number(),
      refund: z.number(),
    })
    .nullable(),
});

/** Photos a customer may attach to a return (docs/returns.md, "Photos"). */
export const MAX_RETURN_PHOTOS = 3;
export const RETURN_PHOTO_FIELD = "photos";
export const returnPhotoTypes = photoTypes;
export type ReturnPhotoType = (typeof returnPhotoTypes)[number];

export const returnPhotoSchema = photoSchema(z.uuid());
export type ReturnPhoto = z.infer<typeof returnPhotoSchema>;

export const returnPhotoPath = (returnId: string, photoId: string) =>
  `/api/returns/${returnId}/photos/${photoId}`;

export const returnPhotoParamsSchema = nestedIdParams("photoId");

export const returnSchema = z.object({
  id: z.uuid(),
  /** The human number: `RMA-10023`. */
  rma: z.string(),
  /**
   * The warranty claim that asked for the part back (`WC-10023`): received, it is kept for the
   * claim, whose decision says what it refunds; null for a customer's own return.
   */
  warrantyClaim: z.string().nullable(),
  orderId: z.uuid(),
  /** `PW-100234` */
  orderNumber: z.string(),
  orderEmail: z.string(),
  status: z.enum(returnStatuses),
  reason: z.enum(returnReasons),
  vehicle: z.string().nullable(),
  /** Whether `vehicle` is the catalog's (picked from My garage or the selector), not free text. */
  vehicleFromCatalog: z.boolean(),
  note: z.string().nullable(),
  adminMessage: z.string().nullable(),
  lines: z.array(returnLineSchema),
  /**
   * The refund: lines + their tax (currency units); once received, what is refunded of what
   * arrived, after any restocking fee.
   */
  amount: z.number(),
  /** The restocking fee kept (0 until received, or without one). */
  fee: z.number(),
  currency: z.string(),
  requestedAt: z.iso.datetime({ offset: true }),
  decidedAt: z.iso.datetime({ offset: true }).nullable(),
  receivedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Why the refund failed (refund_failed): the gateway's words. */
  refundError: z.string().nullable(),
  creditNote: z.object({ id: z.uuid(), number: z.string(), pdfUrl: z.string() }).nullable(),
  /** The customer's photos, oldest first; `url` answers only the customer and admins. */
  photos: z.array(returnPhotoSchema),
});
export type Return = z.infer<typeof returnSchema>;

export const returnsQuerySchema = pagingQuerySchema.extend({
  status: z.enum(returnStatuses).optional(),
});
export type ReturnsQuery = z.infer<typeof returnsQuerySchema>;

/** What an order allows to return now: per line, how many are left to return. */
export const returnableSchema = z.object({
  eligible: z.boolean(),
  /** Why not, when not eligible. */
  reason: z.string().nullable(),
  /** The last day to ask (the latest line shipment + the window; docs/shipments.md). */
  until: z.iso.datetime({ offset: true }).nullable(),
  lines: z.array(
    z.object({
      ...namedOrderLineFields,
      bought: z.number().int(),
      returnable: z.number().int(),
      /**
       * The vehicle the line was bought for (docs/vehicle-on-line.md): a "did not fit" return
       * starts from it. Null when none was chosen.
       */
      vehicle: z.string().nullable(),
      /** The line's core deposit per unit (0: none; docs/core-charges.md). */
      coreDeposit: z.number(),
      /** How many cores (old parts) may still be sent back for their deposit now. */
      coresReturnable: z.number().int(),
    }),
  ),
  currency: z.string(),
  /** The last day to send a core back (the ship date + the core window); null: not shipped. */
  coreUntil: z.iso.datetime({ offset: true }).nullable(),
});
export type Returnable = z.infer<typeof returnableSchema>;

export const fitmentReportSchema = z.array(
  z.object({
    ...soldProductFields,
    returns: z.number().int(),
    units: z.number().int(),
    vehicles: z.array(z.object({ vehicle: z.string(), returns: z.number().int() })),
  }),
);
export type FitmentReport = z.infer<typeof fitmentReportSchema>;

/** A credit note as pages list it. */
export const creditNoteSchema = z.object({
  id: z.uuid(),
  number: z.string(),
  orderId: z.uuid(),
  corrects: z.string().nullable(),
  issuedAt: z.iso.datetime({ offset: true }),
  currency: z.string(),
  /** Negative: what it takes off the invoice. */
  total: z.number(),
  pdfUrl: z.string(),
});
export type CreditNote = z.infer<typeof creditNoteSchema>;

export const creditNotePdfPath = (id: string) => `/api/credit-notes/${id}/pdf`;

export const returnMessages = {
  ...photoMessages("return", MAX_RETURN_PHOTOS, RETURN_PHOTO_FIELD),
  photosClosed: "Photos can be added only while the return awaits the store's answer",
  notShipped: "Only a shipped order can be returned",
  replacement:
    "A warranty replacement was not paid for, so it cannot be returned for a refund: claim its warranty if it fails",
  windowClosed: (days: number) =>
    `The return window of ${days} days after shipping has closed for this order`,
  lineNotShipped: (line: number) => `Line ${line} has not shipped yet, so it cannot be returned`,
  lineWindowClosed: (line: number, days: number) =>
    `Line ${line}: the return window of ${days} days after it shipped has closed`,
  tooMany: (line: number, left: number) => `Line ${line}: at most ${left} more can be returned`,
  noSuchLine: (line: number) => `This order has no line ${line}`,
  refuseNeedsMessage: "Say why the return is refused: the customer is told",
  coreWindowClosed: (days: number) =>
    `The core return window of ${days} days after shipping has closed for this order`,
  noCoreDeposit: (line: number) =>
    `Line ${line} carries no core deposit: only a line with a deposit takes a core return`,
  receiveAllLines: (line: number) => `Line ${line}: say how many arrived and in what condition`,
  receiveTooMany: (line: number, asked: number) =>
    `Line ${line}: ${asked} ${asked === 1 ? "was" : "were"} sent back; at most ${asked} can be received`,
  receiveNoSuchLine: (line: number) => `This return has no line ${line}`,
  refundChanged: (amount: string) =>
    `The refund is now ${amount} (the restocking fee changed): check it and confirm again`,
  tooManyCores: (line: number, left: number) =>
    left === 0
      ? `Line ${line}: every core bought on it has been returned already`
      : `Line ${line}: at most ${left} more cores can be returned (one per unit bought)`,
};
