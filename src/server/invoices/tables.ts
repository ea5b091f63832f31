import { sql } from "../db/sql";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { paymentTermsValues } from "../../contract/terms";
import type { InvoiceSnapshot } from "./snapshot";
import { orders } from "../orders/tables";
import {
  changeXid,
  requiredUuidRef,
  timestampNow,
  timestampTz,
  uuidPrimaryKey,
} from "../db/columns";

/** The documents numbered from a gapless sequence of their own per calendar year. */
export const documentKinds = ["invoice", "credit_note"] as const;
export type DocumentKind = (typeof documentKinds)[number];

/**
 * The last number given per kind of document and calendar year (UTC). Taken with
 * `insert … on conflict do update set last = last + 1` in the transaction that issues the
 * document: a rolled-back issue gives its number back (no gap), and two issues at once queue on
 * this one row (no duplicate).
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    kind: text("kind", { enum: documentKinds }).notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.year] }),
    check("document_counters_last_positive", sql`${t.last} >= 1`),
  ],
);

/**
 * An issued invoice (or, later, a credit note): its number and a snapshot of everything it says.
 * Never updated (a trigger refuses it: migration 0019); an order with an invoice cannot be deleted.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuidPrimaryKey(),
    kind: text("kind", { enum: documentKinds }).notNull().default("invoice"),
    /** `INV-2026-000123` (credit notes: `CN-2026-000001`). */
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    orderId: requiredUuidRef("order_id", () => orders.id, "restrict"),
    /** A credit note: the invoice it corrects. */
    correctsId: uuid("corrects_id").references((): AnyPgColumn => invoices.id, {
      onDelete: "restrict",
    }),
    currency: text("currency").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    issuedAt: timestampNow("issued_at"),
    /** When payment is due: the issue date for card payments (paid already). */
    dueAt: timestampTz("due_at").notNull(),
    snapshot: jsonb("snapshot").$type<InvoiceSnapshot>().notNull(),
    /** How it is paid: card (paid when issued) or on account (netN; docs/terms.md). */
    terms: text("terms", { enum: paymentTermsValues }).notNull().default("card"),
    /**
     * The buyer's company when issued (on account: the company whose credit it uses). No foreign
     * key: an invoice is never updated, so it cannot be set null by a deleted company.
     */
    companyId: uuid("company_id"),
    /** The transaction that issued it (migration 0062): the change cursor (GET /api/sync/invoices). */
    changeXid: changeXid(),
  },
  (t) => [
    unique("invoices_kind_year_sequence_unique").on(t.kind, t.year, t.sequence),
    // One invoice per order (a replayed payment issues none); credit notes may be several.
    uniqueIndex("invoices_one_per_order")
      .on(t.orderId)
      .where(sql`${t.kind} = 'invoice'`),
    index("invoices_order_idx").on(t.orderId),
    check("invoices_kind_valid", sql`${t.kind} in ('invoice', 'credit_note')`),
    check("invoices_sequence_positive", sql`${t.sequence} >= 1`),
    index("invoices_on_account_idx")
      .on(t.companyId, t.dueAt)
      .where(sql`${t.terms} <> 'card'`),
    index("invoices_change_idx").on(t.changeXid, t.id),
  ],
);
