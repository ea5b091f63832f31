import { sql } from "../db/sql";
import { check, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow } from "../db/columns";

/** The longest SMTP answer kept (its first line, cut): enough for "550 5.1.1 … no such user". */
export const MAX_BOUNCE_ANSWER_LENGTH = 300;

/**
 * An address the SMTP server refused for good (a 5xx answer), keyed by the address itself
 * (lower-cased) rather than the account: every kind of mail records it, an account whose address
 * changes no longer matches it, and an address with no account yet (an invitation) is kept too.
 */
export const emailBounces = pgTable(
  "email_bounces",
  {
    address: text("address").primaryKey(),
    /** The last refusal (a repeat moves it on). */
    bouncedAt: timestampNow("bounced_at"),
    /** The SMTP reply code (550…), when the server gave one. */
    smtpCode: integer("smtp_code"),
    /** The first line of the server's answer, cut to MAX_BOUNCE_ANSWER_LENGTH. */
    smtpAnswer: text("smtp_answer").notNull(),
  },
  (t) => [
    check("email_bounces_address_lower", sql`${t.address} = lower(${t.address})`),
    check(
      "email_bounces_answer_length",
      sql`char_length(${t.smtpAnswer}) <= ${sql.raw(String(MAX_BOUNCE_ANSWER_LENGTH))}`,
    ),
  ],
);
