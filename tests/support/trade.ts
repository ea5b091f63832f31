import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../src/server/db/database";
import { customerGroups, RETAIL_GROUP_ID } from "../../src/server/pricing/tables";
import { signUp, type TestAccount } from "./accounts";
import { waitForMail } from "./mailbox";

/** Trade set-ups through the real API: price lists, companies, invitations accepted by email. */

let n = 0;
const unique = () => `${process.pid}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

async function call(
  app: FastifyInstance,
  who: TestAccount,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  payload?: unknown,
) {
  const res = await app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    payload: payload as object | undefined,
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
}

/** A price list with these entries (`unitPrice` and `breaks` in currency units). */
export async function createPriceList(
  app: FastifyInstance,
  admin: TestAccount,
  entries: {
    productId: string;
    unitPrice: number;
    breaks?: { minQty: number; unitPrice: number }[];
  }[],
): Promise<{ id: string; name: string }> {
  const list = await call(app, admin, "POST", "/api/price-lists", { name: `List ${unique()}` });
  for (const e of entries) {
    await call(app, admin, "PUT", `/api/price-lists/${list.id}/entries/${e.productId}`, {
      unitPrice: e.unitPrice,
      breaks: e.breaks ?? [],
    });
  }
  return list;
}

export async function createCompany(
  app: FastifyInstance,
  admin: TestAccount,
  fields: { priceListId?: string | null; name?: string; customerGroupId?: string } = {},
): Promise<{ id: string; name: string }> {
  return call(app, admin, "POST", "/api/companies", { name: `Garage ${unique()}`, ...fields });
}

/** The token of the newest invitation emailed to `email`, read from the local mailbox. */
export async function invitationToken(app: FastifyInstance, email: string): Promise<string> {
  const mail = await waitForMail(app, email, /invited to buy for/);
  const link = mail.links.find((l) => l.includes("/company-invitation?token="));
  if (!link) throw new Error("the invitation has no link");
  return new URL(link).searchParams.get("token")!;
}

/**
 * A new account in the company with this role: invited by `inviter` (an admin or an owner),
 * signed up with the invited address, accepted through the emailed link's token.
 */
export async function joinCompany(
  app: FastifyInstance,
  inviter: TestAccount,
  companyId: string,
  role: "owner" | "buyer" | "viewer",
): Promise<TestAccount & { id: string }> {
  const email = `member-${unique()}@example.com`;
  await call(app, inviter, "POST", `/api/companies/${companyId}/invitations`, { email, role });
  const token = await invitationToken(app, email);
  const member = await signUp(app, { email });
  await call(app, member, "POST", "/api/company-invitations/accept", { token });
  const me = await call(app, member, "GET", "/api/user");
  return { ...member, id: me._id };
}

export type Member = TestAccount & { id: string };

/** A new company with its owner (invited by `admin`) and a buyer that owner invites. */
export async function companyWithBuyer(
  app: FastifyInstance,
  admin: TestAccount,
  fields: { priceListId?: string | null; name?: string; customerGroupId?: string } = {},
): Promise<{ id: string; name: string; owner: Member; buyer: Member }> {
  const company = await createCompany(app, admin, fields);
  const owner = await joinCompany(app, admin, company.id, "owner");
  const buyer = await joinCompany(app, owner, company.id, "buyer");
  return { ...company, owner, buyer };
}

/** `companyWithBuyer` with a viewer too, invited by the owner after the buyer. */
export async function companyWithBuyerAndViewer(
  app: FastifyInstance,
  admin: TestAccount,
  fields: { priceListId?: string | null; name?: string; customerGroupId?: string } = {},
): Promise<{ id: string; name: string; owner: Member; buyer: Member; viewer: Member }> {
  const company = await companyWithBuyer(app, admin, fields);
  const viewer = await joinCompany(app, company.owner, company.id, "viewer");
  return { ...company, viewer };
}

/** A member's order limit (currency units) set as `who` (an owner or an admin); the response. */
export function setOrderLimit(
  app: FastifyInstance,
  who: TestAccount,
  companyId: string,
  memberId: string,
  orderLimit: number | null,
) {
  return app.inject({
    method: "PATCH",
    url: `/api/companies/${companyId}/members/${memberId}`,
    headers: { cookie: who.cookie },
    payload: { orderLimit },
  });
}

/**
 * The store keeps each part's trade minimum for retail customers too (the retail group's "trade
 * minimums", docs/pricing.md): the specification's "please order at least {min}" for everyone,
 * as before customer groups. For tests of that rule with customers outside any company.
 */
export async function tradeMinimumsForRetail(db: DbOrTx): Promise<void> {
  await db
    .update(customerGroups)
    .set({ tradeMinimums: true })
    .where(eq(customerGroups.id, RETAIL_GROUP_ID));
}
