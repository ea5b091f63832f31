import { z } from "zod";
import { pagingQuery } from "./common";
import { moneySchema } from "./pricing";
import {
  deliveryFields,
  expectedTotalSchema,
  orderSchema,
  orderTotalSchema,
  poReferenceSchema,
  refineDestination,
  refineOneDestination,
} from "./orders";
import { text } from "./text";

/**
 * Quotes (docs/quotes.md): a customer turns their cart into a request for quote; an admin prices
 * each line and sends it with an expiry; the buyer accepts it (an order at the quoted prices,
 * through the checkout) or declines it; both sides write in its message thread. Money on the wire
 * in currency units, as everywhere; stored in minor units.
 */

export const quoteStatuses = ["requested", "sent", "accepted", "declined", "expired"] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];
export const quoteStatusLabels: Record<QuoteStatus, string> = {
  requested: "Requested",
  sent: "Priced: waiting for you",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
};
/** The admin's words for the same statuses. */
export const quoteAdminStatusLabels: Record<QuoteStatus, string> = {
  requested: "To price",
  sent: "Sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
};

/** A quote's number as people read it (emails, pages, the audit log): "Q-10001". */
export const quoteNumberText = (n: number): string => `Q-${n}`;

/** The number a search names: "Q-10001", "q10001" or "10001" (null: not a quote number). */
export function quoteNumberIn(q: string): number | null {
  const found = /^q?-?\s*(\d{1,9})$/i.exec(q.trim());
  return found ? Number(found[1]) : null;
}

export const QUOTE_NOTE_MAX = 1000;
export const QUOTE_MESSAGE_MAX = 2000;

export const quoteMessages = {
  emptyCart: "Your cart is empty: add the parts you want a quote for first",
  viewerCannotRequest: "Viewers cannot ask for quotes: ask a buyer or an owner of your company",
  viewerReadOnly: "Viewers can read their company's quotes but not answer them",
  adminsDoNotRequest: "Admins do not ask for quotes",
  notFound: "Quote not found",
  noteTooLong: `The note must be ${QUOTE_NOTE_MAX} characters or shorter`,
  messageEmpty: "Write a message first",
  messageTooLong: `A message must be ${QUOTE_MESSAGE_MAX} characters or shorter`,
  priceRequired: "Give every line a unit price",
  pricePositive: "A unit price must be more than 0",
  unknownLine: "This part is not on the quote",
  expiryInPast: "The expiry must be in the future",
  notRequested: (status: string) =>
    `Only a requested quote can be priced and sent (this one is ${status})`,
  notSent: (status: string) => `This quote is ${status}: it cannot be accepted or declined now`,
  expired: "This quote has expired: ask for a new quote from your cart",
  alreadyAccepted: "This quote was accepted already: its order is in My Items",
  onlyRequesterOrOwner:
    "Only the buyer who asked for this quote, or an owner of their company, can accept or decline it",
  stockShort: (name: string, available: number) =>
    `Only ${available} of ${name} in stock now, so the quote cannot be accepted: write to us in the messages`,
  /**
   * A quote is in the market it was requested in (docs/quotes.md "In the buyer's market"): it is
   * delivered within that market, or asked for again from the cart in the other one.
   */
  otherMarket: (currency: string, market: string) =>
    `This quote is in ${currency} (${market}): deliver it to a country of that market or ask for a new quote`,
  /** A quote's prices are negotiated: codes do not stack on them (docs/quotes.md). */
  noDiscountCode:
    "Discount codes do not apply to quotes: a quote's prices are already agreed with you",
} as const;

/** A code sent with a quote's acceptance or its total: refused in words, not as an unknown key. */
const noDiscountCode = z.undefined({ error: quoteMessages.noDiscountCode }).optional();

export const quoteParamsSchema = z.object({ id: z.uuid({ message: "Malformed quote id" }) });

export const quoteRequestSchema = z.strictObject({
  note: text({ message: "The note must be text" }, { multiline: true })
    .trim()
    .max(QUOTE_NOTE_MAX, quoteMessages.noteTooLong)
    .default(""),
});
export type QuoteRequestInput = z.input<typeof quoteRequestSchema>;

/** The admin's prices (currency units, more than 0) and the expiry date (in the future). */
export const quoteSendSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        productId: z.uuid({ message: "Malformed product id" }),
        unitPrice: moneySchema("Unit price").refine((v) => v > 0, quoteMessages.pricePositive),
      }),
    )
    .min(1, quoteMessages.priceRequired)
    .max(500),
  expiresAt: z.iso.datetime({ offset: true, message: "Give the expiry as a date and time" }),
});
export type QuoteSendInput = z.infer<typeof quoteSendSchema>;

/** Where the accepted quote's order goes: a saved address, or a phone and an address typed. */
export const quoteAcceptSchema = z
  .strictObject({
    ...deliveryFields,
    phonrNo: text().trim().min(3, "Phone is Required").max(30).optional(),
    Address: text().trim().min(3, "Address is Required").max(500).optional(),
    poReference: poReferenceSchema,
    /** The total the buyer was shown (quoted lines, shipping and tax: `POST /quotes/{id}/total`). */
    expectedTotal: expectedTotalSchema.optional(),
    discountCode: noDiscountCode,
  })
  .superRefine(refineDestination);
export type QuoteAccept = z.infer<typeof quoteAcceptSchema>;
export type QuoteAcceptInput = z.input<typeof quoteAcceptSchema>;

export const quoteMessageInputSchema = z.strictObject({
  body: text({ message: "A message must be text" }, { multiline: true })
    .trim()
    .min(1, quoteMessages.messageEmpty)
    .max(QUOTE_MESSAGE_MAX, quoteMessages.messageTooLong),
});

export const quoteLineSchema = z.object({
  productId: z.uuid(),
  productName: z.string(),
  partNumber: z.string().nullable(),
  qty: z.number().int(),
  /** The unit price the buyer saw when asking. */
  seenPrice: z.number(),
  /** The admin's unit price (null until priced). */
  quotedPrice: z.number().nullable(),
  /** quotedPrice × qty (null until priced). */
  lineTotal: z.number().nullable(),
});

export const quoteMessageSchema = z.object({
  id: z.uuid(),
  side: z.enum(["customer", "store"]),
  authorName: z.string(),
  body: z.string(),
  at: z.string(),
});
export type QuoteMessage = z.infer<typeof quoteMessageSchema>;

export const quoteSchema = z.object({
  id: z.uuid(),
  /** The number people use: "Q-10001" (`quoteNumberText`). */
  reference: z.string(),
  status: z.enum(quoteStatuses),
  requesterName: z.string(),
  requesterEmail: z.string(),
  companyName: z.string().nullable(),
  note: z.string(),
  lines: z.array(quoteLineSchema),
  /** Sum of the quoted line totals (null until priced). */
  total: z.number().nullable(),
  /**
   * The currency of its prices: the market's it was requested in (docs/quotes.md "In the
   * buyer's market"), else the store's. Its order is in this currency.
   */
  currency: z.string(),
  /**
   * A consumer's quote in a market whose consumers see VAT included: its prices are gross, at
   * `taxRate` % then (absent: net prices, tax added at acceptance).
   */
  pricesIncludeTax: z.literal(true).optional(),
  taxRate: z.number().optional(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  orderId: z.uuid().nullable(),
  /** The accepted quote's order number (`PW-100234`). */
  orderNumber: z.string().nullable(),
  /** Whether the caller may accept or decline it now (the requester or an owner, while sent). */
  canDecide: z.boolean(),
  /** Whether the caller may write in its thread. */
  canWrite: z.boolean(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const quoteDetailSchema = quoteSchema.extend({ messages: z.array(quoteMessageSchema) });
export type QuoteDetail = z.infer<typeof quoteDetailSchema>;

export const quoteListQuerySchema = pagingQuery(20, { maxOffset: 100_000 }).extend({
  status: z.enum(quoteStatuses).optional(),
  q: text().trim().max(100).optional(),
});
export type QuoteListQuery = z.infer<typeof quoteListQuerySchema>;

export const quoteAcceptResultSchema = z.object({ quote: quoteSchema, order: orderSchema });

/** Where the quote's order would go: a saved address, one given whole, else the default. */
export const quoteTotalInputSchema = z
  .strictObject({
    ...deliveryFields,
    discountCode: noDiscountCode,
  })
  .superRefine(refineOneDestination);
export type QuoteTotalInput = z.infer<typeof quoteTotalInputSchema>;

/** What accepting the quote would charge now: its lines at the quoted prices, shipping and tax. */
export const quoteTotalSchema = orderTotalSchema;
export type QuoteTotal = z.infer<typeof quoteTotalSchema>;
