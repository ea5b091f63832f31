import { z } from "zod";
import { deliveryAddressSchema, MAX_ORDER_QTY, orderSchema } from "./orders";
import { cartMessages, MAX_CART_LINES } from "./constants";
import { phoneNumberSchema } from "./phone";
import { text } from "./text";

export { cartMessages, MAX_CART_LINES };

const qtySchema = z
  .number({ message: "Enter a quantity" })
  .int("Enter a whole number")
  .min(1, "Enter a quantity of at least 1")
  .max(MAX_ORDER_QTY, "That quantity is too large");

/** A part and how many of it: a line of a visitor's cart, kept in the browser. */
export const cartItemInputSchema = z.object({ productId: z.uuid(), qty: qtySchema });
export type CartItemInput = z.infer<typeof cartItemInputSchema>;

/** A visitor's cart, sent to be priced, or to be merged into the account's at sign-in. */
export const cartItemsInputSchema = z.object({
  items: z.array(cartItemInputSchema).max(MAX_CART_LINES, cartMessages.tooManyLines),
});

export const cartQtySchema = z.object({ qty: qtySchema });
export const cartProductParamsSchema = z.object({
  productId: z.uuid({ message: "Malformed id" }),
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
  notice: z.string().nullable(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  /** The number of units in the cart (the navbar's badge). */
  count: z.number().int(),
  /** The sum of the lines that can be checked out. */
  subtotal: z.number(),
  currency: z.string(),
  /** Whether every line can be ordered as it is. */
  canCheckout: z.boolean(),
});
export type Cart = z.infer<typeof cartSchema>;

/**
 * Checking out the account's cart. `expectedTotal` is the total the customer was shown: when the
 * server's total differs (a price or the stock changed), nothing is placed and the page reloads.
 */
export const checkoutSchema = z.object({
  phonrNo: phoneNumberSchema,
  Address: deliveryAddressSchema,
  poReference: text()
    .trim()
    .max(60, "Must be 60 characters or shorter")
    .optional()
    .transform((s) => s || undefined),
  saveToProfile: z.boolean().default(false),
  expectedTotal: z.number().min(0).max(1e12),
});
export type Checkout = z.infer<typeof checkoutSchema>;
export type CheckoutInput = z.input<typeof checkoutSchema>;

export const checkoutResultSchema = z.object({ success: z.literal(true), order: orderSchema });
