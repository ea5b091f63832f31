import { z } from "zod";
import { namedOrderLineFields, orderStatuses } from "./orders";
import { csvImportResultSchema } from "./product-csv";
import { lineBackorderSchema } from "./backorders";
import { refineTrackingPair, trackingFields, trackingInputFields } from "./shipping-carriers";

/** The texts of partial shipment (docs/shipments.md). */
export const shipmentMessages = {
  noLines: "Choose at least one line to ship",
  notPaid: (status: string) => `Only paid orders can be shipped; this one is ${status}`,
  noSuchLine: (line: number) => `This order has no line ${line}`,
  twice: (line: number) => `Line ${line} is listed twice`,
  tooMany: (line: number, left: number) =>
    left === 0
      ? `Line ${line} has nothing left to ship`
      : `Line ${line}: at most ${left} more can be shipped`,
  /** No one location holds every unit of the shipment: the admin says where it ships from. */
  chooseLocation: "These units wait at different locations; ship them from one location at a time",
  noSuchLocation: "That location does not exist",
  notThere: (line: number, waiting: number, location: string) =>
    waiting === 0
      ? `Line ${line}: nothing of it waits at ${location}`
      : `Line ${line}: only ${waiting} wait at ${location}`,
  /** A paid order with some lines shipped is no longer cancelled in full. */
  cannotCancel: "Part of this order has shipped; return the shipped lines instead of cancelling",
} as const;

/** A production lot number (docs/warranty.md "Lots"): 1 to 40 letters, digits, `-`, `_`, `.` or `/`. */
export const LOT_MESSAGE = "A lot is 1 to 40 letters, digits, - _ . or /";
export const lotSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._/-]{1,40}$/, LOT_MESSAGE);

/** Admin: ship these lines (and quantities) of a paid order now, with tracking (both or neither). */
export const shipmentCreateSchema = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          /** The order line (1 = the first). */
          line: z.number().int().min(1).max(1000),
          qty: z
            .number({ message: "Enter a quantity" })
            .int("Enter a whole number")
            .min(1, "Enter a quantity of at least 1")
            .max(1_000_000, "That quantity is too large"),
          /** The units' production lot, if recorded. */
          lot: lotSchema.optional(),
        }),
      )
      .min(1, shipmentMessages.noLines)
      .max(200),
    ...trackingInputFields,
    /**
     * Where it ships from (docs/inventory.md "Shipping from a location"); by default the first
     * location (home first, then by priority) where every unit of it waits.
     */
    locationId: z.uuid().optional(),
  })
  .superRefine(refineTrackingPair);
export type ShipmentCreate = z.infer<typeof shipmentCreateSchema>;

/** A stock location as a shipment or a line names it. */
export const shipmentLocationSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
});

export const shipmentSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  /** Where it shipped from (none for shipments made before locations). */
  from: shipmentLocationSchema.nullable(),
  /** Its carrier, tracking number and tracking page (none for "other" or without tracking). */
  ...trackingFields,
  shippedAt: z.iso.datetime({ offset: true }),
  lines: z.array(
    z.object({
      ...namedOrderLineFields,
      qty: z.number().int(),
      lot: z.string().nullable(),
    }),
  ),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** An order's shipments and, per line, what is shipped and what is still to ship. */
export const orderShipmentsSchema = z.object({
  orderId: z.uuid(),
  /** The order's status: "paid" until every unit has shipped, then "shipped". */
  status: z.enum(orderStatuses),
  /** Some lines shipped, some still to ship (the order's status stays "paid" meanwhile). */
  partiallyShipped: z.boolean(),
  /** The buyer wants it in one go: nothing ships while units are on backorder. */
  shipComplete: z.boolean(),
  shipments: z.array(shipmentSchema),
  lines: z.array(
    z.object({
      ...namedOrderLineFields,
      ordered: z.number().int(),
      shipped: z.number().int(),
      /** What can ship now (units on backorder wait for supply; cancelled ones never ship). */
      toShip: z.number().int(),
      /** Its units on backorder (null: none were). */
      backorder: lineBackorderSchema.nullable(),
      /** Where its units still to ship wait (allocated), home first. */
      waitingAt: z.array(shipmentLocationSchema.extend({ qty: z.number().int() })),
    }),
  ),
});
export type OrderShipments = z.infer<typeof orderShipmentsSchema>;

/** How a paid order with some lines shipped is shown beside its status. */
export const PARTIALLY_SHIPPED_LABEL = "Partially shipped";

/**
 * `POST /api/shipments/lots` (admin, a CSV in multipart field `file`): the production lots of lines
 * already shipped, a row each: `order` (`PW-100234`), `line` (1 = the first), `lot`. All or
 * nothing: a file with any problem writes nothing and lists them all.
 */
export const LOT_CSV_COLUMNS = ["order", "line", "lot"] as const;
export const MAX_LOT_CSV_ROWS = 20_000;
export const MAX_LOT_CSV_BYTES = 2 * 1024 * 1024;
/** Whether the lots were written (no problems), the file's rows and its problems. */
export const lotImportSchema = csvImportResultSchema;
export type LotImport = z.infer<typeof lotImportSchema>;
