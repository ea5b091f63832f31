import { z } from "zod";
import { pagingQuerySchema } from "./common";
import { phoneNumberSchema } from "./phone";
import {
  refineTrackingPair,
  trackingFields,
  trackingInputFields,
  trackingMessages,
} from "./shipping-carriers";
import { companyAddressInputSchema } from "./addresses";
import { discountLineSchema, orderDiscountCodeSchema } from "./discount-codes";
import { shortText, text } from "./text";
import { orderVehicleSchema } from "./vehicles";

/** The exact texts a customer sees about orders (SPEC sections 5 and 8, spelt so). */
export const orderMessages = {
  placed: "Your Oder has been placed",
  /** A company buyer's order over a spending limit (docs/approvals.md). */
  sentForApproval:
    "Your order is over your spending limit, so it was sent to your company's owners for approval",
  duplicate: "You have already ordered this product",
  atLeast: (min: number) => `please order at least ${min}`,
  lessThen: (available: number) => `please order less then ${available}`,
  /**
   * An order the store cannot charge shipping and tax for: no saved address chosen, none given,
   * and no default address in the address book (docs/ordering.md, "Where it goes").
   */
  destinationRequired:
    "Choose a delivery address from your address book, or give the street, city, postal code and country, so shipping and tax can be charged",
  /** Both kinds of destination in one order. */
  oneDestination: "Choose a saved address or give a new one, not both",
} as const;

export const orderStatuses = [
  "unpaid",
  "awaiting_approval",
  "paid",
  "shipped",
  "cancelled",
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/**
 * The statuses whose orders hold their stock (until paid, cancelled or the hold runs out): an
 * unpaid order, and a company buyer's order waiting for an owner's approval (docs/approvals.md).
 */
export const holdingStatuses = ["unpaid", "awaiting_approval"] as const satisfies OrderStatus[];

/**
 * Why an order was cancelled: its hold ran out, the store, its company declined it, the account
 * went, or its buyer cancelled the units on backorder that were all it had left to ship.
 */
export const cancelReasons = [
  "hold_ran_out",
  "store",
  "declined",
  "account_removed",
  "buyer",
] as const;
export type CancelReason = (typeof cancelReasons)[number];

/** What paying a cancelled order answers, by why it was cancelled (declined: approvals.ts). */
export const cancelledPaymentMessages: Record<Exclude<CancelReason, "declined">, string> = {
  hold_ran_out: "This order was cancelled: its hold on the stock ran out",
  store: "This order was cancelled by the store, so it cannot be paid",
  account_removed: "This order was cancelled when its account was removed, so it cannot be paid",
  buyer: "You cancelled this order, so it cannot be paid",
};

/**
 * How a warranty claim's $0 replacement order is settled (orders.paid_with): nothing is paid, and
 * its transaction id is `warranty:` and the claim's number, so one claim places one replacement.
 */
export const WARRANTY_REPLACEMENT = "warranty" as const;
export const warrantyTransactionId = (claim: string) => `${WARRANTY_REPLACEMENT}:${claim}`;
/** Why a claim's replacement cannot be placed: the admin approves a refund instead. */
export const NO_REPLACEMENT = {
  accountGone: "The claimant's account is gone: approve a refund instead",
  productGone: "This part is no longer in the catalog: approve a refund instead",
} as const;

/** How each status is shown to people (badges, filters, the overview). */
export const orderStatusLabels: Record<OrderStatus, string> = {
  unpaid: "Unpaid",
  awaiting_approval: "Awaiting approval",
  paid: "Paid",
  shipped: "Shipped",
  cancelled: "Cancelled",
};

/**
 * The product an order line sold, as it was sold: its id (null once the product is deleted), its
 * name and its part number when it was ordered, where the catalog had one.
 */
export const soldProductFields = {
  productId: z.uuid().nullable(),
  productName: z.string(),
  partNumber: z.string().nullable(),
};

/** An order line as the pages name it: its number (1 = the first), its product's name and part number. */
export const namedOrderLineFields = {
  line: z.number().int(),
  productName: z.string(),
  partNumber: z.string().nullable(),
};

/** One line of an order: the product as it was sold (null id once the product is deleted). */
export const orderLineSchema = z.object({
  ...soldProductFields,
  /** Unit price in currency units, fixed when the order was placed. */
  unitPrice: z.number(),
  qty: z.number().int(),
  /** unitPrice × qty, net of tax. */
  lineTotal: z.number(),
  /** The line's tax, fixed when the order was placed (0 on orders from before tax). */
  tax: z.number(),
  /**
   * The vehicle the customer shopped with, named as the catalog named it when the order was
   * placed ("2016 Toyota Corolla 1.8"); null when none was chosen (docs/vehicle-on-line.md).
   */
  vehicle: z.string().nullable(),
  /**
   * The part's core deposit per unit, fixed when the order was placed (0: none). Charged as its
   * own line (coreDeposit × qty), untaxed, refunded by a core return (docs/core-charges.md).
   */
  coreDeposit: z.number(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** An order's human number as people read it: `PW-100234` (docs/ordering.md). */
export const orderNumberText = (n: number): string => `PW-${n}`;

/** The number in what a person typed for an order's number (`PW-100234`, `#pw100234`, `100234`). */
export function parseOrderNumber(typed: string): number | null {
  const m = /^#?(?:pw-?)?(\d{6,9})$/i.exec(typed.trim());
  return m ? Number(m[1]) : null;
}

/**
 * An order on the wire. The spec's fields (`productId`, `productName`, `orderQty`,
 * `productPrice`, `phonrNo`, `Address`, `_id`) describe its first line, so a one-product order
 * reads as the spec says; `items` holds every line, the first included.
 */
export const orderSchema = z.object({
  _id: z.uuid(),
  /** The number a person reads and quotes (`PW-100234`, sequential); `_id` stays the order's id. */
  number: z.string(),
  productId: z.uuid().nullable(),
  productName: z.string(),
  orderQty: z.number().int(),
  orderEmail: z.string(),
  /** The first line's unit price in currency units, fixed when the order was placed. */
  productPrice: z.number(),
  items: z.array(orderLineSchema).min(1),
  /** The lines' total, net of tax. */
  subtotal: z.number(),
  /** What shipping cost (net of tax), and by which method (null: none charged). */
  shipping: z.number(),
  shippingMethod: z.string().nullable(),
  /** The tax of the lines and the shipping. */
  tax: z.number(),
  /** The tax rate's name and percentage, when one applied. */
  taxName: z.string().nullable(),
  taxRate: z.number().nullable(),
  /**
   * Why the order bears 0 % tax, when a company's reverse charge or exemption applied (the legal
   * note, naming an exemption's certificate), and the company's tax id then (docs/tax.md).
   */
  taxNote: z.string().nullable(),
  buyerTaxId: z.string().nullable(),
  /** The lines' core deposits (each line's coreDeposit × qty), untaxed. */
  coreDeposits: z.number(),
  /**
   * The discount code the order used and what it took off (docs/pricing.md "Discount codes"):
   * shown as its own line, "Discount (SPRING10) −$4.20"; null (or absent): none.
   */
  discount: discountLineSchema.nullable().optional(),
  /** The whole order's total: subtotal − discount + core deposits + shipping + tax. */
  total: z.number(),
  /**
   * A consumer's order with VAT included (docs/tax.md "Prices with VAT included"): its unit
   * prices, subtotal, shipping and total are gross and `tax` is the VAT they contain, shown as
   * "Includes VAT (19 %) €3.80" under the total, not added to it. False (or absent): net prices,
   * tax added.
   */
  pricesIncludeTax: z.boolean().optional(),
  currency: z.string(),
  phonrNo: z.string(),
  Address: z.string(),
  poReference: z.string().nullable(),
  paid: z.boolean(),
  status: z.enum(orderStatuses),
  /** Why a cancelled order was cancelled (null: not cancelled, or cancelled before reasons were kept). */
  cancelReason: z.enum(cancelReasons).nullable(),
  /** Paid, and some of its parcels have left: "Partially shipped" (docs/shipments.md). */
  partiallyShipped: z.boolean(),
  transactionId: z.string().nullable(),
  /** Paid with a test card (the test-card gateway): no money was taken. */
  testPayment: z.boolean(),
  /**
   * A warranty claim's replacement, at no charge (docs/warranty.md "Approval"): the claim's
   * number (`WC-10023`); null for any other order.
   */
  warrantyClaim: z.string().nullable(),
  /**
   * On account (net terms): its invoice's number, due date, whether payments and credit notes
   * settled it, and whether credit notes alone did (a full return, nothing paid); null for any
   * other order. Its words: `paymentWords` (contract/payment-words.ts).
   */
  account: z
    .object({
      invoiceNumber: z.string(),
      dueAt: z.iso.datetime({ offset: true }),
      settled: z.boolean(),
      creditedInFull: z.boolean(),
    })
    .nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  holdExpiresAt: z.iso.datetime({ offset: true }),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  shippedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Who carries it, its tracking number and the carrier's page for it (none: not given). */
  ...trackingFields,
});
export type Order = z.infer<typeof orderSchema>;

export const MAX_ORDER_QTY = 1_000_000;

/** How many of a part a buyer orders (an order, a cart's line, a saved list's). */
export const orderQtySchema = z
  .number({ message: "Enter a quantity" })
  .int("Enter a whole number")
  .min(1, "Enter a quantity of at least 1")
  .max(MAX_ORDER_QTY, "That quantity is too large");

/**
 * Where an order goes, as the doors take it (docs/ordering.md, "Where it goes"): a saved address
 * (the caller's or their company's), or one given whole instead; neither: the address book's
 * default.
 */
export const destinationFields = {
  addressId: z.uuid({ message: "Choose a delivery address" }).optional(),
  shipTo: companyAddressInputSchema.optional(),
};

/** Where an order goes and the shipping method the buyer chose (else the cheapest serving it). */
export const deliveryFields = {
  ...destinationFields,
  shippingMethodId: z.uuid({ message: "Choose a shipping method" }).optional(),
};

/**
 * The total the buyer was shown: when the server's total differs, nothing is placed (409
 * `total_changed` with the new figures).
 */
export const expectedTotalSchema = z.number().min(0).max(1e12);

/** The buyer's purchase order reference, kept on the order (empty: none). */
export const poReferenceSchema = shortText(60)
  .optional()
  .transform((s) => s || undefined);

/** Where an order goes (the spec's `Address`), for one product or a whole cart. */
export const deliveryAddressSchema = text({ message: "Address is Required" })
  .trim()
  .min(1, "Address is Required")
  .max(300, "Must be 300 characters or shorter");

/** Unpaid orders hold stock: what one account may hold (decision 006), and the words for it. */
export const holdMessages = {
  share: (max: number) =>
    `You can hold at most ${max} of this part in unpaid orders; pay for your orders or contact us for more`,
  value: (max: string) =>
    `Unpaid orders may hold at most ${max} of stock; pay for an order before placing another`,
  rate: "You are placing orders too quickly; please wait a minute and try again",
  /** New customers (no order paid yet, no company) share a part of each product's stock. */
  newCustomer: (room: number) =>
    room === 0
      ? "Accounts that have not paid for an order yet cannot hold more of this part right now; pay for an order (see My Items) to order it"
      : `Accounts that have not paid for an order yet can hold only ${room} more of this part right now; pay for an order (see My Items) to order more`,
} as const;

/**
 * What the customer sends. Who orders, the product's name and its price come from the session and
 * the database; the spec's `orderEmail`, `productName` and `productPrice` are ignored if sent.
 */
/**
 * Where an order goes, as every door takes it: a saved address (`addressId`), one given whole
 * (`shipTo`), or neither (the address book's default); never both. Without a saved address
 * the free-text `Address` and `phonrNo` are required where a door has them optional.
 */
export function refineDestination(
  body: { addressId?: string; shipTo?: unknown; Address?: string; phonrNo?: string },
  ctx: z.RefinementCtx,
): void {
  refineOneDestination(body, ctx);
  if (body.addressId || body.shipTo) return;
  if (body.Address === undefined) {
    ctx.addIssue({ code: "custom", path: ["Address"], message: "Address is Required" });
  }
  if (body.phonrNo === undefined) {
    ctx.addIssue({ code: "custom", path: ["phonrNo"], message: "Phone is Required" });
  }
}

/** A saved address or one given whole, not both (the doors without free text: totals). */
export function refineOneDestination(
  body: { addressId?: string; shipTo?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (body.addressId && body.shipTo) {
    ctx.addIssue({ code: "custom", path: ["shipTo"], message: orderMessages.oneDestination });
  }
}

/** The order's fields (the dialog's form picks its own from them). */
export const orderCreateFields = z.object({
  productId: z.uuid({ message: "Choose a product" }),
  orderQty: orderQtySchema,
  phonrNo: phoneNumberSchema,
  Address: deliveryAddressSchema,
  /** The vehicle the part is for (the shopper's chosen one); kept on the order line. */
  vehicle: orderVehicleSchema.optional(),
  /** Where it goes, so shipping and tax are charged (docs/ordering.md). */
  ...destinationFields,
  /** The total the customer was shown (`POST /api/orders/total`); absent: whatever it comes to. */
  expectedTotal: expectedTotalSchema.optional(),
  /** A discount code (docs/pricing.md "Discount codes"), as at checkout. */
  discountCode: orderDiscountCodeSchema,
});
export const orderCreateSchema = orderCreateFields.superRefine(refineDestination);
export type OrderCreate = z.infer<typeof orderCreateSchema>;

/** POST /api/orders/total: what the order would charge now, placing nothing. */
export const orderTotalInputSchema = orderCreateFields
  .pick({ productId: true, orderQty: true, addressId: true, shipTo: true, discountCode: true })
  .superRefine(refineOneDestination);
export type OrderTotalInput = z.infer<typeof orderTotalInputSchema>;

/** What an order (or an accepted quote) charges: its lines, core deposits, shipping and tax. */
export const orderTotalSchema = z.object({
  subtotal: z.number(),
  coreDeposits: z.number(),
  shipping: z.number(),
  /** The shipping method charged (the cheapest serving the address unless one was chosen). */
  shippingMethod: z.string().nullable(),
  tax: z.number(),
  total: z.number(),
  /** The discount code's line (its code and what it takes off); absent: none. */
  discount: discountLineSchema.optional(),
  /**
   * A consumer's prices with VAT included (docs/tax.md): the parts, shipping and total are gross,
   * `tax` is the VAT they contain at `taxRate` percent, shown "Includes VAT (19 %) €7.87" under
   * the total. Absent: net prices, tax added.
   */
  pricesIncludeTax: z.boolean().optional(),
  taxRate: z.number().nullable().optional(),
});
export type OrderTotal = z.infer<typeof orderTotalSchema>;

export const ordersQuerySchema = z.object({
  orderEmail: text().trim().max(254).optional(),
});

/** PATCH /api/orders/{id}: the gateway's transaction id, verified by the server, never trusted. */
export const orderPaySchema = z.object({
  transactionId: text().trim().min(1).max(255),
  productId: z.uuid().optional(),
});

/** Admin: every order, filterable by status and searchable by customer email or product. */
export const adminOrdersQuerySchema = pagingQuerySchema.extend({
  status: z.enum(orderStatuses).optional(),
  q: text().trim().max(100).optional(),
});
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuerySchema>;

/**
 * Admin status changes: a paid order is shipped, an unpaid one cancelled (stock returned).
 * Shipping may name the carrier and tracking number: both or neither (docs/shipments.md).
 */
export const orderStatusChangeSchema = z
  .strictObject({
    status: z.enum(["shipped", "cancelled"]),
    ...trackingInputFields,
  })
  .superRefine((b, ctx) => {
    const given = b.carrier !== undefined || b.trackingNumber !== undefined;
    if (given && b.status !== "shipped") {
      ctx.addIssue({
        code: "custom",
        message: trackingMessages.notWhenCancelling,
        path: ["status"],
      });
    } else refineTrackingPair(b, ctx);
  });
export type OrderStatusChange = z.infer<typeof orderStatusChangeSchema>;

export const adminOrderSchema = orderSchema.extend({ customerName: z.string() });
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** Admin: one order in full, with its payments at the gateway and what happened when. */
export const adminOrderDetailSchema = adminOrderSchema.extend({
  payments: z.array(
    z.object({
      gateway: z.string(),
      /** The gateway's id of the payment: the order's transaction id once it succeeded. */
      transactionId: z.string(),
      status: z.string(),
      amount: z.number(),
      currency: z.string(),
      createdAt: z.iso.datetime({ offset: true }),
    }),
  ),
  /** What happened to the order, oldest first. */
  history: z.array(
    z.object({
      status: z.enum(["placed", "paid", "shipped", "cancelled"]),
      at: z.iso.datetime({ offset: true }),
    }),
  ),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

export const ordersOverviewSchema = z.object({
  byStatus: z.record(z.enum(orderStatuses), z.number().int()),
  /** The last 30 days, oldest first: orders placed that day and revenue paid that day. */
  days: z.array(z.object({ date: z.string(), orders: z.number().int(), revenue: z.number() })),
  currency: z.string(),
});
export type OrdersOverview = z.infer<typeof ordersOverviewSchema>;

/** Admin: what one account holds in unpaid orders (stock kept off sale until paid or expired). */
export const accountHoldsSchema = z.object({
  userId: z.string(),
  orderEmail: z.string(),
  customerName: z.string(),
  orders: z.number().int(),
  units: z.number().int(),
  value: z.number(),
  currency: z.string(),
  /** When the earliest of these holds runs out. */
  firstExpiresAt: z.iso.datetime({ offset: true }),
});
export type AccountHolds = z.infer<typeof accountHoldsSchema>;

export const holdsAccountParamsSchema = z.object({ userId: text().trim().min(1).max(100) });
