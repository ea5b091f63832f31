import { z } from "zod";
import { nestedIdParams, pagingQuerySchema } from "./common";
import { formatCount } from "./count";
import { text } from "./text";
import { claimDeadlineSchema } from "./warranty-deadlines";
import { namedOrderLineFields, orderStatuses } from "./orders";
import { returnStatuses } from "./returns";
import { photoMessages, photoSchema, photoTypes } from "./photos";
import { trackingFields } from "./shipping-carriers";

// Warranty claims (docs/warranty.md): a part that failed in use, within its warranty, claimed by
// its buyer (or their company's owners and buyers) and decided by the manufacturer.

/** Where a claim stands. */
export const claimStatuses = [
  /** Filed, waiting for the manufacturer. */
  "submitted",
  /** The manufacturer asked a question; the claimant's answer sends it back to `submitted`. */
  "information_requested",
  /** The manufacturer wants the part back: a return (RMA) with its address and instructions. */
  "part_requested",
  /** The part came back (its return received); waiting for the inspection. */
  "part_received",
  /** The manufacturer inspected the part (or its photos): findings and a failure code. */
  "inspected",
  /** Approved: a $0 replacement order, or a refund or credit note of the claimed units. */
  "approved",
  "rejected",
] as const;
export type ClaimStatus = (typeof claimStatuses)[number];
export const claimStatusLabels: Record<ClaimStatus, string> = {
  submitted: "Submitted",
  information_requested: "More information requested",
  part_requested: "Part requested back",
  part_received: "Part received",
  inspected: "Inspected",
  approved: "Approved",
  rejected: "Rejected",
};
/** The statuses a claim can still change from (an answer or a decision is awaited). */
export const openClaimStatuses = [
  "submitted",
  "information_requested",
  "part_requested",
  "part_received",
  "inspected",
] as const satisfies ClaimStatus[];
export type OpenClaimStatus = (typeof openClaimStatuses)[number];
/** Whether a claim in `status` can still change (an answer or a decision is awaited). */
export const isOpenClaim = (status: ClaimStatus): status is OpenClaimStatus =>
  (openClaimStatuses as readonly ClaimStatus[]).includes(status);

/**
 * Whose move an open claim waits for: the claimant's (an answer, the part sent back) or the
 * store's (a question, the inspection, the decision). Each side's deadline runs from the claim's
 * last change of status.
 */
export const claimWaitsOn: Record<OpenClaimStatus, "claimant" | "store"> = {
  submitted: "store",
  information_requested: "claimant",
  part_requested: "claimant",
  part_received: "store",
  inspected: "store",
};

/**
 * What an approved claim gives: a replacement part on a $0 order, or the returned part's refund
 * (to the card; on account, a credit note), by the returns' rules.
 */
export const claimRemedies = ["replacement", "refund"] as const;
export type ClaimRemedy = (typeof claimRemedies)[number];
export const claimRemedyLabels: Record<ClaimRemedy, string> = {
  replacement: "Replacement part, at no charge",
  refund: "Refund of the returned part",
};

/** Who fitted the part. */
export const installers = ["self", "garage", "other"] as const;
export type Installer = (typeof installers)[number];
export const installerLabels: Record<Installer, string> = {
  self: "I fitted it myself",
  garage: "A garage fitted it",
  other: "Someone else fitted it",
};

/** A claim's human number: `WC-10023` (the id stays the uuid). */
export const claimNumber = (n: number) => `WC-${n}`;

export const MAX_MILEAGE = 2_000_000;
/** Photos the claimant may attach to a claim while it is open (docs/warranty.md "Photos"). */
export const MAX_CLAIM_PHOTOS = 3;
export const CLAIM_PHOTO_FIELD = "photos";
export const claimPhotoTypes = photoTypes;
export const claimPhotoPath = (claimId: string, photoId: string) =>
  `/api/warranty-claims/${claimId}/photos/${photoId}`;
export const MAX_CLAIM_TEXT = 2000;
export const MIN_CLAIM_DESCRIPTION = 10;

/** What a person reads when a claim is refused or a field is wrong. */
export const warrantyMessages = {
  notShipped: "Only parts that have shipped can be claimed under warranty",
  noWarranty: (line: number) => `Line ${line} has no warranty`,
  /** The rule: a claim outside the warranty is refused with the date it ended. */
  ended: (endedOn: string) => `This part's warranty ended on ${endedOn}`,
  noSuchLine: (line: number) => `The order has no line ${line}`,
  tooMany: (left: number) =>
    left === 0
      ? "Every shipped unit of this line is already in a claim or a return"
      : `Only ${left} of this line can still be claimed`,
  failedBeforeFitted: "The failure date cannot be before the installation date",
  fittedBeforeOrdered: (placedOn: string) =>
    `The order was placed on ${placedOn}: the part cannot have been fitted before`,
  inFuture: "The date cannot be in the future",
  mileageOrder: "The mileage at failure cannot be less than at installation",
  notOpen: "This claim is decided already",
  notYourTurn: "The claim is waiting for the store's answer",
  unknownFailureCode: "Choose a failure code from the list",
  ...photoMessages("claim", MAX_CLAIM_PHOTOS, CLAIM_PHOTO_FIELD),
  photosClosed: "Photos can be added only while the claim is open",
  orderNotFound: "Order not found",
  claimNotFound: "Claim not found",
  partAsked: (rma: string) => `The part has been asked back already (${rma})`,
  partOnItsWay: (rma: string) =>
    `The part is on its way back (${rma}): receive its return before deciding`,
  refundNeedsPart:
    "A refund is for a part that came back: ask for the part first, or approve a replacement",
  nothingArrived: (rma: string) => `Nothing of ${rma} arrived: there is nothing to refund`,
} as const;

const mileage = (what: string) =>
  z
    .number({ message: `Enter the ${what} in whole kilometres or miles` })
    .int(`Enter the ${what} in whole kilometres or miles`)
    .min(0, `The ${what} cannot be negative`)
    .max(MAX_MILEAGE, `The ${what} is more than ${formatCount(MAX_MILEAGE)}`);

const day = (what: string) => z.iso.date({ message: `Enter the ${what} as a date` });

/** `POST /api/warranty-claims`: a failed part of a shipped order line. */
export const claimInputSchema = z
  .strictObject({
    orderId: z.uuid({ message: "Malformed order id" }),
    line: z.number().int().min(1).max(1000),
    qty: z
      .number({ message: "Enter how many failed" })
      .int("Enter how many failed")
      .min(1, "At least one part must be claimed")
      .max(10_000),
    /** Checked by the server (length, letters, check digit): `vehicles/vin.ts`. */
    vin: text().trim().min(1, "Enter the vehicle's VIN").max(32),
    mileageAtInstall: mileage("mileage at installation"),
    mileageAtFailure: mileage("mileage at failure"),
    installedOn: day("installation date"),
    failedOn: day("failure date"),
    installedBy: z.enum(installers, { message: "Choose who fitted the part" }),
    /** What happened, in the claimant's words. */
    description: text(undefined, { multiline: true })
      .trim()
      .min(
        MIN_CLAIM_DESCRIPTION,
        `Describe what happened in at least ${MIN_CLAIM_DESCRIPTION} characters`,
      )
      .max(MAX_CLAIM_TEXT),
    /** A garage claiming for its own customer: the invoice it gave them. */
    customerInvoiceRef: text().trim().max(60).optional(),
  })
  .refine((c) => c.failedOn >= c.installedOn, {
    path: ["failedOn"],
    message: warrantyMessages.failedBeforeFitted,
  })
  .refine((c) => c.mileageAtFailure >= c.mileageAtInstall, {
    path: ["mileageAtFailure"],
    message: warrantyMessages.mileageOrder,
  });
export type ClaimInput = z.infer<typeof claimInputSchema>;

/** `POST /api/warranty-claims/{id}/messages`: either side writes on the claim's thread. */
export const claimMessageInputSchema = z.strictObject({
  body: text(undefined, { multiline: true }).trim().min(1, "Write a message").max(MAX_CLAIM_TEXT),
  /** Admin only: the message is a question, and the claim waits for the claimant's answer. */
  askForInformation: z.boolean().optional(),
});
export type ClaimMessageInput = z.infer<typeof claimMessageInputSchema>;

/** `POST /api/warranty-claims/{id}/reject` (admin): why, shown to the claimant and emailed. */
export const claimRejectionSchema = z.strictObject({
  reason: text(undefined, { multiline: true })
    .trim()
    .min(1, "Say why the claim is rejected")
    .max(MAX_CLAIM_TEXT),
});
export type ClaimRejection = z.infer<typeof claimRejectionSchema>;

/**
 * `POST /api/warranty-claims/{id}/request-part` (admin): the part back for inspection, through a
 * return (an RMA) with the returns address; the instructions are added to its email.
 */
export const claimPartRequestSchema = z.strictObject({
  instructions: text(undefined, { multiline: true }).trim().max(MAX_CLAIM_TEXT).optional(),
});
export type ClaimPartRequest = z.infer<typeof claimPartRequestSchema>;

/** `POST /api/warranty-claims/{id}/approve` (admin): the remedy, and words for the claimant. */
export const claimApprovalSchema = z.strictObject({
  remedy: z.enum(claimRemedies, { message: "Choose a replacement or a refund" }),
  message: text(undefined, { multiline: true }).trim().max(MAX_CLAIM_TEXT).optional(),
});
export type ClaimApproval = z.infer<typeof claimApprovalSchema>;

/**
 * The manufacturer's list of failure codes (admin-editable): what an inspection found wrong.
 * A code in use is never removed, only retired (`active: false`): old claims keep their words.
 */
export const failureCodeSchema = z.object({
  code: z.string(),
  label: z.string(),
  active: z.boolean(),
});
export type FailureCode = z.infer<typeof failureCodeSchema>;
export const FAILURE_CODE_MESSAGE = "A code is 1 to 20 capital letters, digits, - or _";
export const failureCodeParamsSchema = z.object({
  code: z.string().regex(/^[A-Z0-9_-]{1,20}$/, FAILURE_CODE_MESSAGE),
});
/** `PUT /api/warranty/failure-codes/{code}`: a new code, or a code's words and whether in use. */
export const failureCodeInputSchema = z.strictObject({
  label: text().trim().min(1, "Name the failure").max(100),
  active: z.boolean(),
});
export type FailureCodeInput = z.infer<typeof failureCodeInputSchema>;

/** `POST /api/warranty-claims/{id}/inspect` (admin): what the inspection found. */
export const claimInspectionSchema = z.strictObject({
  failureCode: z.string().min(1, warrantyMessages.unknownFailureCode).max(20),
  findings: text(undefined, { multiline: true })
    .trim()
    .min(1, "Write what the inspection found")
    .max(MAX_CLAIM_TEXT),
});
export type ClaimInspection = z.infer<typeof claimInspectionSchema>;

/** A claimant's photo of the failed part; `url` answers only those who see the claim. */
export const claimPhotoSchema = photoSchema(z.string());
export type ClaimPhoto = z.infer<typeof claimPhotoSchema>;
export const claimPhotoParamsSchema = nestedIdParams("photoId");

/** One entry of a claim's history: a message, or a change of status. */
export const claimEventSchema = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  /** `customer` (the claimant or their company) or `store`. */
  side: z.enum(["customer", "store"]),
  /** The writer's name as the other side sees it. */
  author: z.string(),
  body: z.string().nullable(),
  /** The status the event moved the claim to, if it did. */
  status: z.enum(claimStatuses).nullable(),
});
export type ClaimEvent = z.infer<typeof claimEventSchema>;

export const claimSchema = z.object({
  id: z.string(),
  /** `WC-10023`. */
  number: z.string(),
  status: z.enum(claimStatuses),
  orderId: z.string(),
  orderNumber: z.string(),
  line: z.number().int(),
  productId: z.string().nullable(),
  productName: z.string(),
  partNumber: z.string().nullable(),
  /** The production lots the line shipped in (docs/warranty.md "Lots"); empty: none recorded. */
  lots: z.array(z.string()),
  qty: z.number().int(),
  vin: z.string(),
  mileageAtInstall: z.number().int(),
  mileageAtFailure: z.number().int(),
  installedOn: z.string(),
  failedOn: z.string(),
  installedBy: z.enum(installers),
  description: z.string(),
  customerInvoiceRef: z.string().nullable(),
  /** The day the line's warranty ends (months from its last shipment). */
  warrantyEndsOn: z.string(),
  /** Who filed it (their name and email), and their company if any. */
  claimant: z.object({ name: z.string(), email: z.string(), company: z.string().nullable() }),
  rejectionReason: z.string().nullable(),
  /** The inspection's failure code and findings (null until inspected). */
  inspection: z
    .object({
      code: z.string(),
      label: z.string(),
      findings: z.string(),
      at: z.iso.datetime({ offset: true }),
    })
    .nullable(),
  /** The part asked back: its return's RMA and where that return stands (null: not asked). */
  partReturn: z
    .object({ id: z.string(), rma: z.string(), status: z.enum(returnStatuses) })
    .nullable(),
  /** The approval's remedy (null until approved). */
  remedy: z.enum(claimRemedies).nullable(),
  /** The $0 replacement order, with its tracking once shipped (remedy `replacement`). */
  replacementOrder: z
    .object({
      id: z.string(),
      number: z.string(),
      status: z.enum(orderStatuses),
      ...trackingFields,
    })
    .nullable(),
  filedAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  /** Whose move the open claim waits for, and by when (null once decided). */
  deadline: claimDeadlineSchema,
  events: z.array(claimEventSchema),
  /** The claimant's photos, oldest first. */
  photos: z.array(claimPhotoSchema),
});
export type Claim = z.infer<typeof claimSchema>;

/** A claim in a list: without its history and photos. */
export const claimSummarySchema = claimSchema.omit({ events: true, photos: true });
export type ClaimSummary = z.infer<typeof claimSummarySchema>;

/** `GET /api/orders/{id}/warranty`: what of each line may still be claimed, and until when. */
export const claimableSchema = z.object({
  lines: z.array(
    z.object({
      ...namedOrderLineFields,
      shipped: z.number().int(),
      /** Units still claimable: shipped, less claims (not rejected) and returns (not refused). */
      claimable: z.number().int(),
      warrantyMonths: z.number().int(),
      /** The last day of the warranty (null: not shipped, or no warranty). */
      endsOn: z.string().nullable(),
      /** Why nothing can be claimed, when nothing can. */
      reason: z.string().nullable(),
      /** The day the line last shipped. */
      shippedOn: z.string().nullable(),
    }),
  ),
});
export type Claimable = z.infer<typeof claimableSchema>;

/** `GET /api/warranty-claims`: admins see every claim, others theirs and their company's. */
export const claimsQuerySchema = pagingQuerySchema.extend({
  status: z.enum(claimStatuses).optional(),
  /** A part number or name, or a claim or order number. */
  q: text().trim().max(100).optional(),
  /** Only claims filed at least this many days ago. */
  olderThanDays: z.coerce.number().int().min(0).max(3650).optional(),
  /** Only claims whose inspection found this failure code. */
  failureCode: z
    .string()
    .regex(/^[A-Z0-9_-]{1,20}$/, FAILURE_CODE_MESSAGE)
    .optional(),
});
export type ClaimsQuery = z.infer<typeof claimsQuerySchema>;
