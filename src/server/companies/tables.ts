import { sql } from "../db/sql";
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { companyRoles } from "../../contract/companies";
import { paymentTermsValues } from "../../contract/terms";
import {
  postalAddressColumns,
  requiredUuidRef,
  timestampNow,
  timestampTz,
  uuidPrimaryKey,
} from "../db/columns";
import { customerGroups, GARAGE_GROUP_ID, priceLists } from "../pricing/tables";
import { ownerUserId, user } from "../users/tables";

/** A trade customer: members buy at its price list's prices (DESIGN.md section 7). */
export const companies = pgTable(
  "companies",
  {
    id: uuidPrimaryKey(),
    name: text("name").notNull(),
    taxId: text("tax_id"),
    /** The state that issued the tax id (ISO alpha-2), given or read from its EU VAT prefix. */
    taxIdCountry: text("tax_id_country"),
    /** When an admin's EU VAT number passed the format check (null: not an EU VAT id, unchecked). */
    taxIdValidatedAt: timestampTz("tax_id_validated_at"),
    /** A tax exemption certificate number an admin recorded: the company pays 0 % tax. */
    taxExemptionCertificate: text("tax_exemption_certificate"),
    taxExemptionRecordedAt: timestampTz("tax_exemption_recorded_at"),
    taxExemptionRecordedBy: text("tax_exemption_recorded_by").references(() => user.id, {
      onDelete: "set null",
    }),
    /** card: pays by card when ordering, like everyone; netN: on account (docs/terms.md). */
    paymentTerms: text("payment_terms", { enum: paymentTermsValues }).notNull().default("card"),
    creditLimitCents: integer("credit_limit_cents"),
    priceListId: uuid("price_list_id").references(() => priceLists.id, { onDelete: "restrict" }),
    /** Its customer group (docs/pricing.md): its price rules and whether trade minimums hold. */
    customerGroupId: uuid("customer_group_id")
      .notNull()
      .default(GARAGE_GROUP_ID)
      .references(() => customerGroups.id, { onDelete: "restrict" }),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    uniqueIndex("companies_name_unique").on(sql`lower(${t.name})`),
    index("companies_price_list_idx").on(t.priceListId),
    index("companies_customer_group_idx").on(t.customerGroupId),
    check(
      "companies_credit_limit_nonnegative",
      sql`${t.creditLimitCents} is null or ${t.creditLimitCents} >= 0`,
    ),
    check(
      "companies_payment_terms_valid",
      sql`${t.paymentTerms} in ('card', 'net15', 'net30', 'net60')`,
    ),
  ],
);

export const companyMembers = pgTable(
  "company_members",
  {
    companyId: requiredUuidRef("company_id", () => companies.id, "cascade"),
    /** One company per account at most (the unique index below). */
    userId: ownerUserId(),
    role: text("role", { enum: companyRoles }).notNull(),
    /** Spending limits: an order over one waits for an owner's approval (docs/approvals.md). */
    orderLimitCents: integer("order_limit_cents"),
    monthlyLimitCents: integer("monthly_limit_cents"),
    joinedAt: timestampNow("joined_at"),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId] }),
    uniqueIndex("company_members_user_unique").on(t.userId),
    check("company_members_role_valid", sql`${t.role} in ('owner', 'buyer', 'viewer')`),
  ],
);

/**
 * A company's ship-to addresses (docs/companies.md): the address book's fields, kept per
 * company; its members deliver to them at checkout. Orders keep their own copy (`ship_to`).
 */
export const companyAddresses = pgTable(
  "company_addresses",
  {
    id: uuidPrimaryKey(),
    companyId: requiredUuidRef("company_id", () => companies.id, "cascade"),
    ...postalAddressColumns(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("company_addresses_company_idx").on(t.companyId, t.createdAt),
    check("company_addresses_country_code", sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

export const companyInvitations = pgTable(
  "company_invitations",
  {
    id: uuidPrimaryKey(),
    companyId: requiredUuidRef("company_id", () => companies.id, "cascade"),
    /** Lower-case; only the account with this address may accept. */
    email: text("email").notNull(),
    role: text("role", { enum: companyRoles }).notNull(),
    /** SHA-256 of the emailed token (the token itself is never stored). */
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: timestampNow("created_at"),
    expiresAt: timestampTz("expires_at").notNull(),
    acceptedAt: timestampTz("accepted_at"),
  },
  (t) => [
    uniqueIndex("company_invitations_token_unique").on(t.tokenHash),
    index("company_invitations_company_idx").on(t.companyId, t.createdAt),
    check("company_invitations_role_valid", sql`${t.role} in ('owner', 'buyer', 'viewer')`),
  ],
);

/**
 * A company's EU VAT number as VIES (the Commission's register) last answered it (docs/tax.md
 * "VIES"): one row per company with an EU VAT number while checks are on, replaced when the number
 * changes. `answer` null: VIES has not answered yet (`lastFailure` says why, once it was asked).
 */
export const companyVatChecks = pgTable(
  "company_vat_checks",
  {
    companyId: uuid("company_id")
      .primaryKey()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** The number checked, as `companies.tax_id` holds it (DE123456789, EL… for Greece). */
    vatId: text("vat_id").notNull(),
    answer: text("answer", { enum: ["valid", "invalid"] }),
    answeredAt: timestampTz("answered_at"),
    /** VIES's consultation number (`requestIdentifier`): the proof of the check. */
    consultationNumber: text("consultation_number"),
    viesName: text("vies_name"),
    viesAddress: text("vies_address"),
    lastAttemptAt: timestampTz("last_attempt_at"),
    /** Why the last attempt got no answer (null: it was answered). */
    lastFailure: text("last_failure"),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("company_vat_checks_due_idx").on(t.answeredAt.asc().nullsFirst()),
    check(
      "company_vat_checks_answer_valid",
      sql`${t.answer} is null or ${t.answer} in ('valid', 'invalid')`,
    ),
    check("company_vat_checks_answered", sql`(${t.answer} is null) = (${t.answeredAt} is null)`),
  ],
);
