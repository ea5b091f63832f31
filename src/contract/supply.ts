import { z } from "zod";
import { idParam, pagingQuerySchema } from "./common";
import { csvImportResultSchema } from "./product-csv";
import { text } from "./text";

/**
 * Incoming supply (admin, docs/inventory.md "Incoming supply"): production runs of the plant and
 * purchase orders coming to a location, with the date they are expected; received units go on
 * sale at that location. An open supply's units still to come are `qty - received`.
 */

export const SUPPLY_KINDS = ["production", "purchase_order"] as const;
export type SupplyKind = (typeof SUPPLY_KINDS)[number];
export const SUPPLY_STATUSES = ["open", "received", "cancelled"] as const;
export type SupplyStatus = (typeof SUPPLY_STATUSES)[number];

export const supplyKindLabels: Record<SupplyKind, string> = {
  production: "Production run",
  purchase_order: "Purchase order",
};
export const supplyStatusLabels: Record<SupplyStatus, string> = {
  open: "Open",
  received: "Received",
  cancelled: "Cancelled",
};

/** The most units one supply may bring. */
export const MAX_SUPPLY_QTY = 10_000_000;
/** Expected dates are within these years (a date PostgreSQL and people both read). */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2099;

/** Words of the supply's refusals, word for word on both sides. */
export const supplyMessages = {
  notFound: "Incoming supply not found",
  productNotFound: "Product not found",
  locationNotFound: "Location not found",
  choosePart: "Choose the part",
  chooseLocation: "Choose the location it arrives at",
  kind: "Choose a production run or a purchase order",
  reference: "Enter the run or PO number",
  referenceLength: "Must be 60 characters or shorter",
  qty: "Enter how many units are coming",
  qtyWhole: "Enter a whole number",
  qtyPositive: "At least 1 unit",
  qtyTooLarge: "That is too many units",
  expectedOn: "Enter the expected date (YYYY-MM-DD)",
  expectedOnRange: `Enter a date between ${FIRST_YEAR} and ${LAST_YEAR}`,
  note: "Must be 500 characters or shorter",
  receiveQty: "Enter how many units arrived",
  notOpen: (status: SupplyStatus) =>
    status === "received"
      ? "Every unit of this supply has arrived: nothing more to receive or change"
      : "This supply was cancelled",
  tooMany: (toCome: number) =>
    `Only ${toCome} ${toCome === 1 ? "unit is" : "units are"} still to come: receive ${toCome} or fewer`,
  belowReceived: (received: number) =>
    `The quantity cannot be less than the ${received} ${received === 1 ? "unit" : "units"} already received`,
  duplicate: (kind: SupplyKind, reference: string, partNumber: string) =>
    `${supplyKindLabels[kind]} ${reference} already brings ${partNumber}: change its quantity instead`,
  inactiveLocation: (name: string) =>
    `${name} is inactive: activate it on the Locations page before receiving supply there`,
  /** What the admin is told once units were received. */
  received: (qty: number, reference: string) =>
    `Received ${qty} ${qty === 1 ? "unit" : "units"} of ${reference}: on sale now`,
} as const;

const kindSchema = z.enum(SUPPLY_KINDS, { error: supplyMessages.kind });
const referenceSchema = text({ error: supplyMessages.reference })
  .trim()
  .min(1, supplyMessages.reference)
  .max(60, supplyMessages.referenceLength);
const qtySchema = (message: string) =>
  z
    .number({ error: message })
    .int(supplyMessages.qtyWhole)
    .min(1, supplyMessages.qtyPositive)
    .max(MAX_SUPPLY_QTY, supplyMessages.qtyTooLarge);
/** A calendar date, `2027-01-12`. */
export const expectedOnSchema = z.iso.date({ error: supplyMessages.expectedOn }).refine((d) => {
  const year = Number(d.slice(0, 4));
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}, supplyMessages.expectedOnRange);
const noteSchema = text({}, { multiline: true }).trim().max(500, supplyMessages.note);

/** `POST /api/incoming-supply`: what is coming, where and when. */
export const supplyCreateSchema = z.object({
  kind: kindSchema,
  reference: referenceSchema,
  productId: z.uuid({ error: supplyMessages.choosePart }),
  locationId: z.uuid({ error: supplyMessages.chooseLocation }),
  qty: qtySchema(supplyMessages.qty),
  expectedOn: expectedOnSchema,
  note: noteSchema.default(""),
});
export type SupplyCreate = z.infer<typeof supplyCreateSchema>;
export type SupplyDraft = z.input<typeof supplyCreateSchema>;

/** `PATCH /api/incoming-supply/{id}` (an open supply): only the fields sent change. */
export const supplyUpdateSchema = z
  .object({
    reference: referenceSchema,
    qty: qtySchema(supplyMessages.qty),
    expectedOn: expectedOnSchema,
    note: noteSchema,
  })
  .partial();
export type SupplyUpdate = z.infer<typeof supplyUpdateSchema>;

/** `POST /api/incoming-supply/{id}/receive`: units that arrived (at most those still to come). */
export const supplyReceiveSchema = z.object({ qty: qtySchema(supplyMessages.receiveQty) });
export type SupplyReceive = z.infer<typeof supplyReceiveSchema>;

/** `GET /api/incoming-supply`: paged, by status (none: every status), product and location. */
export const supplyListQuerySchema = pagingQuerySchema.extend({
  status: z.enum(SUPPLY_STATUSES).optional(),
  productId: idParam().optional(),
  locationId: idParam().optional(),
});
export type SupplyListQuery = z.infer<typeof supplyListQuerySchema>;

export const incomingSupplySchema = z.object({
  id: z.uuid(),
  kind: z.enum(SUPPLY_KINDS),
  reference: z.string(),
  productId: z.uuid(),
  productName: z.string(),
  partNumber: z.string(),
  locationId: z.uuid(),
  locationCode: z.string(),
  locationName: z.string(),
  locationActive: z.boolean(),
  qty: z.number().int(),
  received: z.number().int(),
  /** Units still to come: `qty - received` while open, else 0. */
  toCome: z.number().int(),
  expectedOn: z.iso.date(),
  status: z.enum(SUPPLY_STATUSES),
  note: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type IncomingSupply = z.infer<typeof incomingSupplySchema>;

/**
 * `POST /api/incoming-supply/import` (a CSV in multipart field `file`): a row per supply, columns
 * `kind` (`production` or `purchase_order`), `reference`, `part_number`, `location_code`, `qty`,
 * `expected_on` (`2027-01-12`), and optionally `note`. All or nothing: a file with any problem
 * writes nothing and lists them all, each with its line.
 */
export const SUPPLY_CSV_COLUMNS = [
  "kind",
  "reference",
  "part_number",
  "location_code",
  "qty",
  "expected_on",
] as const;
export const SUPPLY_CSV_OPTIONAL_COLUMNS = ["note"] as const;
export const MAX_SUPPLY_CSV_ROWS = 5_000;
export const MAX_SUPPLY_CSV_BYTES = 2 * 1024 * 1024;
/** Whether the supply was written (no problems), the file's rows and its problems. */
export const supplyImportSchema = csvImportResultSchema;
export type SupplyImport = z.infer<typeof supplyImportSchema>;
