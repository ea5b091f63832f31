import { eq } from "drizzle-orm";
import type { Membership } from "../http/request-context";
import type { DbOrTx } from "../db/database";
import { companies, companyMembers } from "./tables";

/**
 * Which company a user belongs to, and as what: the one reader of that question. The company
 * guards (`auth/guards.ts`) read it once per request and hand it to the route as
 * `companyOf(req)`; services that ask it about someone else (an order's buyer) or inside their
 * own transaction call it here. It is read from the database every time, never from the session
 * or a cache, so a removed member loses the company's pages at once.
 *
 * Two hot statements keep their own join instead (one round trip fewer): pricing
 * (`pricing/pricing.ts`, `pricingJson` and `applicableListId`) and the order placement's
 * destination and tax facts (`charges/read.ts`).
 */
/** The user's membership, or null for a user in no company (one indexed read). */
export async function membershipOf(db: DbOrTx, userId: string): Promise<Membership | null> {
  const [m] = await db
    .select({
      companyId: companyMembers.companyId,
      role: companyMembers.role,
      orderLimitCents: companyMembers.orderLimitCents,
      monthlyLimitCents: companyMembers.monthlyLimitCents,
    })
    .from(companyMembers)
    .where(eq(companyMembers.userId, userId));
  return m ?? null;
}

/**
 * The company a user belongs to as an invoice names it (docs/invoices.md), or null: the
 * membership and the company in one statement, as it is read inside the paying (or the placing,
 * on account) transaction.
 */
export async function invoicedCompanyOf(
  db: DbOrTx,
  userId: string,
): Promise<{ id: string; name: string; taxId: string | null } | null> {
  const [company] = await db
    .select({ id: companies.id, name: companies.name, taxId: companies.taxId })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(eq(companyMembers.userId, userId));
  return company ?? null;
}
