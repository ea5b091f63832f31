import { z } from "zod";
import { idParam } from "./common";
import {
  deliveryAddressSchema,
  deliveryFields,
  expectedTotalSchema,
  orderQtySchema,
  orderSchema,
  poReferenceSchema,
  refineDestination,
} from "./orders";
import { cartMessages, MAX_CART_LINES } from "./constants";
import { destinationEstimateSchema } from "./addresses";
import { shippingOptionSchema } from "./shipping";
import { phoneNumberSchema } from "./phone";
import { orderVehicleSchema } from "./vehicles";
import { cartDiscountSchema, orderDiscountCodeSchema } from "./discount-codes";

export { cartMessages, MAX_CART_LINES };

const qtySchema = orderQtySchema;

/**
 * A part and how many of it: a line of a visitor's cart, kept in the browser, with the vehicle it
 * was added for (the catalog's ids; named by the server, a vehicle it does not know is left off).
 */
export const cartItemInputSchema = z.object({
  productId: z.uuid(),
  qty: qtySchema,
  vehicle: orderVehicleSchema.optional(),
});
export type CartItemInput = z.infer<typeof cartItemInputSchema>;

/** A visitor's cart, sent to be priced, or to be merged into the account's at sign-in. */
export const cartItemsInputSchema = z.object({
  items: z.array(cartItemInputSchema).max(MAX_CART_LINES, cartMessages.tooManyLines),
});

/**
 * Putting a part in the cart: its quantity, and the vehicle it is for (the shopper's chosen one;
 * docs/vehicle-on-line.md). A vehicle sent replaces the line's; none sent keeps it.
 */
export const cartQtySchema = z.object({ qty: qtySchema, vehicle: orderVehicleSchema.optional() });
export const cartProductParamsSchema = z.object({
  productId: idParam(),
});

/**
 * One line of a cart, priced from the catalog as it is now. `problem` says what stands in the way
 * of checking it out (the spec's order messages where they apply), `notice` what changed.
 */
export const cartLineSchema = z.object({
  productId: z.uuid(),
  productName: z.string(),
  /** Null when the product was deleted. */
  img: z.string().nullable(),
  qty: z.number().int(),
  unitPrice: z.number(),
  lineTotal: z.number(),
  minimumOrder: z.number().int(),
  availableQuantity: z.number().int(),
  problem: z.string().nullable(),
  /**
   * Units above the stock on sale that the part takes on backorder, with the date promised now
   * (docs/inventory.md "Backorders"); the checkout then asks how to ship. Null: none.
   */
  backorder: z.object({ qty: z.number().int(), expectedOn: z.iso.date() }).nullable(),
  notice: z.string().nullable(),
  /** Said beside the price when the buyer's group rule gave it ("Garage price: 20 % off brakes"). */
  priceNote: z.string().nullable(),
  /** The line's tax at the destination's rate (0 without a destination). */
  tax: z.number(),
  /** The part's core deposit per unit, charged besides its price (0: none; docs/core-charges.md). */
  coreDeposit: z.number(),
  /**
   * The vehicle the part was added for, named by the catalog ("2016 Toyota Corolla 1.8"); the
   * order line keeps it. Null: none.
   */
  vehicle: z.string().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  /** The number of units in the cart (the navbar's badge). */
  count: z.number().int(),
  /** The sum of the lines that can be checked out (before a discount code). */
  subtotal: z.number(),
  /**
   * The discount code's line (docs/pricing.md "Discount codes"): its code, what it takes off and
   * what it applies to; null without a code, or when the applied code cannot be used now.
   */
  discount: cartDiscountSchema.nullable(),
  /** Why the code applied to the cart takes nothing off now ("Spend $50.00 or more …"), else null. */
  discountProblem: z.string().nullable(),
  /** Their core deposits (coreDeposit × qty), untaxed. */
  coreDeposits: z.number(),
  currency: z.string(),
  /** Whether every line can be ordered as it is. */
  canCheckout: z.boolean(),
  /** Where shipping and tax were computed for (null: no destination given; both 0). */
  destination: z
    .object({ country: z.string(), region: z.string().nullable(), postalCode: z.string() })
    .nullable(),
  /** The methods serving the destination, with their price for this cart. */
  shippingOptions: z.array(shippingOptionSchema),
  /** The method charged: the one asked for while it serves, else the cheapest. */
  shippingMethodId: z.uuid().nullable(),
  shipping: z.number(),
  /** The lines' and the shipping's tax. */
  tax: z.number(),
  /** The tax rate applied, in percent (null: none). */
  taxRate: z.number().nullable(),
  taxName: z.string().nullable(),
  /** A 0 % treatment's note: reverse charge's legal wording, or the exemption certificate's. */
  taxNote: z.string().nullable(),
  /** subtotal − discount + core deposits + shipping + tax: what the checkout charges when nothing changes. */
  total: z.number(),
  /**
   * A consumer's prices with VAT included (docs/tax.md "Prices with VAT included"): the lines,
   * subtotal and shipping are gross, `tax` is the VAT they contain (shown "Includes VAT (19 %)
   * €7.87" under the total) and the total adds no tax. Absent: net prices, tax added.
   */
  pricesIncludeTax: z.boolean().optional(),
  /** Why the destination cannot be served (no zone, too heavy), else null. */
  deliveryProblem: z.string().nullable(),
  /**
   * A quote for a destination in another market than the buyer's: "Delivery to Germany is priced
   * in EUR (Europe): the totals below are in EUR" (docs/pricing.md "The market chosen"); absent
   * otherwise.
   */
  marketNotice: z.string().optional(),
});
export type Cart = z.infer<typeof cartSchema>;

/**
 * A quote: a visitor's lines (`items`), or without them the caller's own cart; for a saved
 * address of the caller's (`addressId`) or an estimate (`estimate`: country and postal code),
 * with the shipping method they chose (else the cheapest).
 */
export const cartQuoteSchema = z
  .object({
    items: z.array(cartItemInputSchema).max(MAX_CART_LINES, cartMessages.tooManyLines).optional(),
    addressId: deliveryFields.addressId,
    estimate: destinationEstimateSchema.optional(),
    shippingMethodId: deliveryFields.shippingMethodId,
  })
  // A quote says what it prices: lines, or a place for the caller's own cart.
  .refine((q) => q.items || q.addressId || q.estimate, {
    message: "Send the lines (items), a saved address (addressId) or a place (estimate)",
    path: ["items"],
  });
export type CartQuote = z.infer<typeof cartQuoteSchema>;
export type CartQuoteInput = z.input<typeof cartQuoteSchema>;

/**
 * Checking out the account's cart. `expectedTotal` is the total the customer was shown (lines,
 * shipping and tax): when the server's total differs (a price, the stock, a rate changed),
 * nothing is placed and the answer (409) carries the new figures.
 *
 * Delivery: a saved address (`addressId`, whose formatted text and phone become the order's
 * `Address` and `phonrNo`) with a `shippingMethodId` among the quote's `shippingOptions`; or, as
 * before, free-text `Address` and `phonrNo` (shipping and tax then follow the default address,
 * if any: docs/shipping.md).
 */
export const checkoutSchema = z
  .object({
    ...deliveryFields,
    phonrNo: phoneNumberSchema.optional(),
    Address: deliveryAddressSchema.optional(),
    poReference: poReferenceSchema,
    saveToProfile: z.boolean().default(false),
    expectedTotal: expectedTotalSchema,
    /**
     * The vehicle the parts are for (the shopper's chosen one): kept on every order line whose
     * cart line has no vehicle of its own (docs/vehicle-on-line.md).
     */
    vehicle: orderVehicleSchema.optional(),
    /**
     * Some parts are short and take backorders (docs/inventory.md "Backorders"): ship the whole
     * order once everything is there ("complete"), or what is there now and the rest as it comes
     * ("available"). Absent: a short line refuses the checkout, as the specification says.
     */
    fulfilment: z.enum(["complete", "available"]).optional(),
    /**
     * The discount code the buyer saw applied (the cart's `discount.code`): checked again in the
     * order's transaction, and used once. Absent: the order takes no code.
     */
    discountCode: orderDiscountCodeSchema,
  })
  .superRefine(refineDestination);
export type Checkout = z.infer<typeof checkoutSchema>;
export type CheckoutInput = z.input<typeof checkoutSchema>;

export const checkoutResultSchema = z.object({ success: z.literal(true), order: orderSchema });
