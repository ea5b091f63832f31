import { z } from "zod";
import { nestedIdParams } from "./common";
import { cartSchema } from "./cart";
import { orderQtySchema } from "./orders";
import { requiredName } from "./text";

/** Saved lists (docs/quick-order.md "Saved lists"): a customer's named lists of parts. */
export const MAX_LISTS = 50;
export const MAX_LIST_LINES = 500;
export const MAX_LIST_NAME = 80;

export const listMessages = {
  tooManyLists: `You can keep at most ${MAX_LISTS} lists: delete one first`,
  tooManyLines: `A list holds at most ${MAX_LIST_LINES} parts`,
  duplicateName: "You already have a list with this name",
  notFound: "List not found",
  productNotFound: "Product not found",
  empty: "This list is empty",
} as const;

const qtySchema = orderQtySchema;

export const listNameSchema = requiredName(MAX_LIST_NAME);

export const listItemInputSchema = z.strictObject({ productId: z.uuid(), qty: qtySchema });

export const listCreateSchema = z.strictObject({
  name: listNameSchema,
  /** Parts to start the list with (say, the resolved lines of a quick order). */
  items: z.array(listItemInputSchema).max(MAX_LIST_LINES, listMessages.tooManyLines).optional(),
});
export type ListCreate = z.infer<typeof listCreateSchema>;

export const listRenameSchema = z.strictObject({ name: listNameSchema });
export const listQtySchema = z.strictObject({ qty: qtySchema });
export const listItemParamsSchema = nestedIdParams("productId");

export const listSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** How many different parts it holds. */
  lineCount: z.number().int(),
  updatedAt: z.string(),
});
export type ListSummary = z.infer<typeof listSummarySchema>;

export const listLineSchema = z.object({
  productId: z.uuid(),
  productName: z.string(),
  partNumber: z.string(),
  img: z.string(),
  qty: z.number().int(),
  /** Today's unit price for the caller, in currency units. */
  unitPrice: z.number(),
  minimumOrder: z.number().int(),
  availableQuantity: z.number().int(),
});
export type ListLine = z.infer<typeof listLineSchema>;

export const listSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  updatedAt: z.string(),
  currency: z.string(),
  lines: z.array(listLineSchema),
});
export type SavedList = z.infer<typeof listSchema>;

export const listAddedSchema = z.object({
  added: z.number().int(),
  /** Parts left out, and why (out of stock; a quantity below the minimum is raised, over the stock capped). */
  notes: z.array(z.object({ productId: z.uuid(), productName: z.string(), message: z.string() })),
  cart: cartSchema,
});
export type ListAdded = z.infer<typeof listAddedSchema>;
