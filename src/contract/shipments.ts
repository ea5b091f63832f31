import { z } from "zod";
import { orderStatuses } from "./orders";
import {
  carrierSchema,
  shippingCarriers,
  trackingMessages,
  trackingNumberSchema,
} from "./shipping-carriers";

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
  /** A paid order with some lines shipped is no longer cancelled in full. */
  cannotCancel: "Part of this order has shipped; return the shipped lines instead of cancelling",
} as const;

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
        }),
      )
      .min(1, shipmentMessages.noLines)
      .max(200),
    carrier: carrierSchema.optional(),
    trackingNumber: trackingNumberSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.carrier === undefined) !== (b.trackingNumber === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: trackingMessages.both,
        path: [b.carrier === undefined ? "carrier" : "trackingNumber"],
      });
    }
  });
export type ShipmentCreate = z.infer<typeof shipmentCreateSchema>;

export const shipmentSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  carrier: z.enum(shippingCarriers).nullable(),
  trackingNumber: z.string().nullable(),
  /** The carrier's tracking page (none for "other" or without tracking). */
  trackingUrl: z.string().nullable(),
  shippedAt: z.iso.datetime({ offset: true }),
  lines: z.array(
    z.object({
      line: z.number().int(),
      productName: z.string(),
      partNumber: z.string().nullable(),
      qty: z.number().int(),
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
  shipments: z.array(shipmentSchema),
  lines: z.array(
    z.object({
      line: z.number().int(),
      productName: z.string(),
      partNumber: z.string().nullable(),
      ordered: z.number().int(),
      shipped: z.number().int(),
      toShip: z.number().int(),
    }),
  ),
});
export type OrderShipments = z.infer<typeof orderShipmentsSchema>;

/** How a paid order with some lines shipped is shown beside its status. */
export const PARTIALLY_SHIPPED_LABEL = "Partially shipped";
