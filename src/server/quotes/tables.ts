import { sql } from "../db/sql";
import {
  check,
  index,
  integer,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  boolean,
  uuid,
} from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import { quoteStatuses } from "../../contract/quotes";
import { roundingRules } from "../../contract/markets";
import { companies } from "../companies/tables";
import { orders } from "../orders/tables";
import { user } from "../users/tables";

/**
 * A customer's request for quote (from their cart), priced and sent by an admin, then accepted
 * (an order at the quoted prices) or declined by the buyer. A company member's quote belongs to
 * the company (its members read it); a customer without a company's to them alone.
 */
/** The quotes' human numbers (`Q-10001`, `quoteNumberText`): taken at insert; a number may skip. */
export const quoteNumbers = pgSequence("quotes_number_seq", { startWith: 10001 });

export const quotes = pgTable(
  "quotes",
  {
    id: uuidPrimaryKey(),
    /** The number a person reads (`Q-` and this); the id stays the quote's id in URLs and the API. */
    number: integer("number")
      .notNull()
      .unique("quotes_number_unique")
      .default(sql`nextval('quotes_number_seq')`),
    /** Who asked (null once their account is removed; the email stays). */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    requesterEmail: text("requester_email").notNull(),
    requesterName: text("requester_name").notNull(),
    /** The company the request was made for, when the requester belonged to one. */
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "set null" }),
    status: text("status", { enum: quoteStatuses }).notNull().default("requested"),
    note: text("note").notNull().default(""),
    /** Until when the buyer may accept it (set when sent). */
    expiresAt: timestampTz("expires_at"),
    sentAt: timestampTz("sent_at"),
    decidedAt: timestampTz("decided_at"),
    /**
     * The market it was requested in (migration 0094; docs/quotes.md "In the buyer's market"):
     * its currency (null: the store's, as every quote before), the market's rate then, its code
     * and rounding rule (null: the default market), and whether its prices include VAT (a
     * consumer's quote in a market that shows VAT) at the rate they included then. Its lines'
     * prices are in this currency; its acceptance is an order in it at this rate.
     */
    currency: text("currency"),
    exchangeRate: numeric("exchange_rate", { precision: 14, scale: 6, mode: "number" })
      .notNull()
      .default(1),
    marketCode: text("market_code"),
    rounding: text("rounding", { enum: roundingRules }),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    taxRateMillipercent: integer("tax_rate_millipercent"),
    /** The order its acceptance placed. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("quotes_company_idx").on(t.companyId, t.createdAt),
    index("quotes_user_idx").on(t.userId, t.createdAt),
    index("quotes_created_idx").on(t.createdAt),
    check(
      "quotes_status_valid",
      sql`${t.status} in ('requested', 'sent', 'accepted', 'declined', 'expired')`,
    ),
    check("quotes_note_length", sql`char_length(${t.note}) <= 1000`),
    check("quotes_exchange_rate_positive", sql`${t.exchangeRate} > 0`),
    check("quotes_market_whole", sql`(${t.marketCode} is null) = (${t.rounding} is null)`),
  ],
);

/** A quote's lines: what was asked, the price the buyer saw then, and the admin's price. */
export const quoteLines = pgTable(
  "quote_lines",
  {
    quoteId: requiredUuidRef("quote_id", () => quotes.id, "cascade"),
    productId: uuid("product_id").notNull(),
    productName: text("product_name").notNull(),
    partNumber: text("part_number"),
    qty: integer("qty").notNull(),
    /** The unit price the buyer saw when asking (their price then), for reference. */
    seenPriceCents: integer("seen_price_cents").notNull(),
    /** The admin's unit price (null until priced). */
    quotedPriceCents: integer("quoted_price_cents"),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.productId] }),
    check("quote_lines_qty_positive", sql`${t.qty} > 0`),
    check(
      "quote_lines_quoted_positive",
      sql`${t.quotedPriceCents} is null or ${t.quotedPriceCents} > 0`,
    ),
  ],
);

/** A quote's message thread: the buyer's side and the store's (admins). */
export const quoteMessages = pgTable(
  "quote_messages",
  {
    id: uuidPrimaryKey(),
    quoteId: requiredUuidRef("quote_id", () => quotes.id, "cascade"),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    /** Which side wrote it: the customer's, or the store's. */
    side: text("side", { enum: ["customer", "store"] }).notNull(),
    body: text("body").notNull(),
    at: timestampNow("at"),
  },
  (t) => [
    index("quote_messages_quote_idx").on(t.quoteId, t.at),
    check("quote_messages_side_valid", sql`${t.side} in ('customer', 'store')`),
    check("quote_messages_body_length", sql`char_length(${t.body}) between 1 and 2000`),
  ],
);
