import { desc, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { expectTooManyRequests } from "../../../tests/support/too-many";
import {
  createCompany,
  createPriceList,
  invitationToken,
  joinCompany,
} from "../../../tests/support/trade";
import { waitForMail } from "../../../tests/support/mailbox";
import { companyMessages } from "../../contract/companies";
import { INVITATION_LIMITS } from "./routes";
import { adminAuditLog } from "../audit/tables";
import { companyInvitations, companyMembers } from "./tables";

const { t, call, admin } = storeForTests({ admin: "companies-admin@example.com" });

const auditOf = async (companyId: string) =>
  t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, companyId))
    .orderBy(desc(adminAuditLog.at));

test("an admin creates a company with its terms and list, edits it, finds it; each change is audited", async () => {
  const list = await createPriceList(t.app, admin, []);
  const created = await call(admin, "POST", "/api/companies", {
    name: "Northside Fleet Services",
    taxId: "GB123456789",
    paymentTerms: "net30",
    creditLimit: 5000,
    priceListId: list.id,
  });
  expect(created.statusCode).toBe(201);
  const company = created.json();
  expect(company).toMatchObject({
    name: "Northside Fleet Services",
    taxId: "GB123456789",
    paymentTerms: "net30",
    creditLimit: 5000,
    priceListId: list.id,
    priceListName: list.name,
    memberCount: 0,
  });
  const dup = await call(admin, "POST", "/api/companies", { name: "northside fleet services" });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().message).toBe(companyMessages.nameTaken);
  const badList = await call(admin, "POST", "/api/companies", {
    name: "Other",
    priceListId: "00000000-0000-4000-8000-000000000000",
  });
  expect(badList.statusCode).toBe(400);
  expect(badList.json().message).toBe(companyMessages.priceListNotFound);
  expect((await call(admin, "POST", "/api/companies", { name: "  " })).statusCode).toBe(400);
  expect(
    (await call(admin, "POST", "/api/companies", { name: "X", creditLimit: -1 })).statusCode,
  ).toBe(400);

  // Terms are one of card, net15, net30, net60: free text is refused.
  expect(
    (await call(admin, "PATCH", `/api/companies/${company.id}`, { paymentTerms: "Net 30" }))
      .statusCode,
  ).toBe(400);
  const edited = await call(admin, "PATCH", `/api/companies/${company.id}`, {
    paymentTerms: "card",
    creditLimit: null,
  });
  expect(edited.json()).toMatchObject({
    paymentTerms: "card",
    creditLimit: null,
    taxId: "GB123456789",
  });
  expect((await call(admin, "PATCH", `/api/companies/${company.id}`, {})).statusCode).toBe(400);

  const found = await call(admin, "GET", "/api/companies?q=NORTHSIDE");
  expect(found.headers["x-total-count"]).toBe("1");
  expect(found.json()[0].id).toBe(company.id);
  expect((await auditOf(company.id)).map((a) => a.action)).toEqual([
    "company.update",
    "company.create",
  ]);
});

test("an invitation is emailed with a link; the invited address accepts it once and joins", async () => {
  const company = await createCompany(t.app, admin);
  const email = `invited-${Date.now()}@example.com`;
  const invited = await call(admin, "POST", `/api/companies/${company.id}/invitations`, {
    email: email.toUpperCase(),
    role: "buyer",
  });
  expect(invited.statusCode).toBe(201);
  expect(invited.json()).toMatchObject({ email, role: "buyer", acceptedAt: null });
  const token = await invitationToken(t.app, email);
  // Only a hash of the token is stored.
  const [row] = await t.database.db
    .select()
    .from(companyInvitations)
    .where(eq(companyInvitations.email, email));
  expect(row!.tokenHash).not.toContain(token);

  const someoneElse = await signUp(t.app);
  const wrong = await call(someoneElse, "POST", "/api/company-invitations/accept", { token });
  expect(wrong.statusCode).toBe(403);
  expect(wrong.json().message).toBe(companyMessages.wrongEmail(email));
  expect(
    (await call(someoneElse, "POST", "/api/company-invitations/accept", { token: "nope" })).json()
      .message,
  ).toBe(companyMessages.invitationInvalid);
  expect((await call(null, "POST", "/api/company-invitations/accept", { token })).statusCode).toBe(
    401,
  );

  const buyer = await signUp(t.app, { email });
  const accepted = await call(buyer, "POST", "/api/company-invitations/accept", { token });
  expect(accepted.statusCode).toBe(200);
  expect(accepted.json()).toEqual({
    companyId: company.id,
    companyName: company.name,
    role: "buyer",
  });
  const again = await call(buyer, "POST", "/api/company-invitations/accept", { token });
  expect(again.statusCode).toBe(410);
  expect(again.json().message).toBe(companyMessages.invitationUsed);

  const mine = (await call(buyer, "GET", "/api/company")).json();
  expect(mine.company).toMatchObject({ id: company.id, role: "buyer", members: null });
  expect((await call(someoneElse, "GET", "/api/company")).json()).toEqual({ company: null });
  expect((await auditOf(company.id)).map((a) => a.action)).toEqual([
    "company.join",
    "company.invite",
    "company.create",
  ]);
});

test("an expired invitation, one to an account already in a company, and an admin's acceptance are refused", async () => {
  const company = await createCompany(t.app, admin);
  const email = `late-${Date.now()}@example.com`;
  await call(admin, "POST", `/api/companies/${company.id}/invitations`, { email, role: "viewer" });
  const token = await invitationToken(t.app, email);
  await t.database.db
    .update(companyInvitations)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(companyInvitations.email, email));
  const late = await signUp(t.app, { email });
  const expired = await call(late, "POST", "/api/company-invitations/accept", { token });
  expect(expired.statusCode).toBe(410);
  expect(expired.json().message).toBe(companyMessages.invitationExpired);

  const member = await joinCompany(t.app, admin, company.id, "buyer");
  const other = await createCompany(t.app, admin);
  const twice = await call(admin, "POST", `/api/companies/${other.id}/invitations`, {
    email: member.email,
    role: "buyer",
  });
  expect(twice.statusCode).toBe(409);
  expect(twice.json().message).toBe(companyMessages.alreadyMember);

  await call(admin, "POST", `/api/companies/${other.id}/invitations`, {
    email: admin.email,
    role: "buyer",
  });
  const adminToken = await invitationToken(t.app, admin.email);
  const refused = await call(admin, "POST", "/api/company-invitations/accept", {
    token: adminToken,
  });
  expect(refused.statusCode).toBe(403);
  expect(refused.json().message).toBe(companyMessages.adminsCannotJoin);
});

test("owners invite and remove members of their own company; removal ends the company's prices at once", async () => {
  const p = await insertProduct(t.database.db, { priceCents: 2000, minimumOrder: 1 });
  const list = await createPriceList(t.app, admin, [{ productId: p.id, unitPrice: 15 }]);
  const company = await createCompany(t.app, admin, { priceListId: list.id });
  const owner = await joinCompany(t.app, admin, company.id, "owner");
  const buyer = await joinCompany(t.app, owner, company.id, "buyer");

  const mine = (await call(owner, "GET", "/api/company")).json().company;
  expect(mine.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
    [owner.email, "owner"],
    [buyer.email, "buyer"],
  ]);
  const limits = await call(owner, "PATCH", `/api/companies/${company.id}/members/${buyer.id}`, {
    orderLimit: 500,
    monthlyLimit: 2000,
  });
  expect(limits.json()).toMatchObject({ orderLimit: 500, monthlyLimit: 2000, role: "buyer" });
  // The last owner cannot leave the company ownerless.
  const self = await call(owner, "DELETE", `/api/companies/${company.id}/members/${owner.id}`);
  expect(self.statusCode).toBe(422);
  expect(self.json().message).toBe(companyMessages.lastOwner);
  const demote = await call(owner, "PATCH", `/api/companies/${company.id}/members/${owner.id}`, {
    role: "buyer",
  });
  expect(demote.statusCode).toBe(422);

  const price = async () =>
    (await call(buyer, "GET", `/api/products/${p.id}/price`)).json().yourPrice;
  expect(await price()).toBe(15);
  expect(
    (await call(owner, "DELETE", `/api/companies/${company.id}/members/${buyer.id}`)).statusCode,
  ).toBe(204);
  expect(await price()).toBe(20);
  expect((await call(buyer, "GET", "/api/company")).json()).toEqual({ company: null });
  // Their account stays: they still shop, at list prices.
  const cart = await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 1 });
  expect(cart.json().subtotal).toBe(20);
  const audit = await auditOf(company.id);
  expect(audit[0]).toMatchObject({ action: "company.member.remove", actorEmail: owner.email });
  expect(audit[0]!.summary).toContain("as the company's owner");
});

test("a pending invitation can be withdrawn; its link then works no more", async () => {
  const company = await createCompany(t.app, admin);
  const email = `withdrawn-${Date.now()}@example.com`;
  const inv = (
    await call(admin, "POST", `/api/companies/${company.id}/invitations`, { email, role: "buyer" })
  ).json();
  const token = await invitationToken(t.app, email);
  const list = (await call(admin, "GET", `/api/companies/${company.id}/invitations`)).json();
  expect(list.map((i: { id: string }) => i.id)).toEqual([inv.id]);
  expect(
    (await call(admin, "DELETE", `/api/companies/${company.id}/invitations/${inv.id}`)).statusCode,
  ).toBe(204);
  const who = await signUp(t.app, { email });
  expect((await call(who, "POST", "/api/company-invitations/accept", { token })).statusCode).toBe(
    404,
  );
});

test("two owners demoting or removing each other at once always leave the company an owner", async () => {
  const company = await createCompany(t.app, admin);
  const a = await joinCompany(t.app, admin, company.id, "owner");
  const b = await joinCompany(t.app, admin, company.id, "owner");
  const member = (who: { id: string }) => `/api/companies/${company.id}/members/${who.id}`;
  const owners = async () =>
    (await call(admin, "GET", `/api/companies/${company.id}/members`))
      .json()
      .filter((m: { role: string }) => m.role === "owner").length;
  const other = (who: { id: string }) => (who === a ? b : a);
  const acts = [
    (who: { id: string }) => call(other(who), "PATCH", member(who), { role: "buyer" }),
    (who: { id: string }) => call(other(who), "DELETE", member(who)),
  ];
  let refusedByTheRule = 0;
  for (let round = 0; round < 8; round++) {
    // Both owners again, as the round before may have demoted or removed either.
    await t.database.db
      .insert(companyMembers)
      .values([a, b].map((m) => ({ companyId: company.id, userId: m.id, role: "owner" as const })))
      .onConflictDoUpdate({ target: companyMembers.userId, set: { role: "owner" } });
    expect(await owners()).toBe(2);
    // Every pairing in turn: demote and demote, remove and demote, demote and remove, both remove.
    const [first, second] = [acts[round % 2]!, acts[Math.floor(round / 2) % 2]!];
    const answers = await Promise.all([first(b), second(a)]);
    expect(await owners()).toBeGreaterThanOrEqual(1);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes[0]).toBeLessThan(300);
    // The other is refused: by the rule, or, if it came second, as no longer an owner (404).
    expect([404, 422]).toContain(codes[1]);
    const refused = answers.find((r) => r.statusCode === 422);
    if (refused) {
      expect(JSON.parse(refused.body).message).toBe(companyMessages.lastOwner);
      refusedByTheRule += 1;
    }
  }
  expect(refusedByTheRule).toBeGreaterThan(0);
});

test("an owner inviting another company's member is answered as for any address; only their own members are refused", async () => {
  const company = await createCompany(t.app, admin);
  const owner = await joinCompany(t.app, admin, company.id, "owner");
  const ours = await joinCompany(t.app, owner, company.id, "buyer");
  const elsewhere = await createCompany(t.app, admin);
  const theirs = await joinCompany(t.app, admin, elsewhere.id, "buyer");
  const invite = (email: string) =>
    call(owner, "POST", `/api/companies/${company.id}/invitations`, { email, role: "viewer" });

  const fresh = await invite(`nobody-yet-${Date.now()}@example.com`);
  const taken = await invite(theirs.email);
  expect([fresh.statusCode, taken.statusCode]).toEqual([201, 201]);
  expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
  expect(taken.json()).toMatchObject({ email: theirs.email, role: "viewer", acceptedAt: null });
  // The invitation is real, but its acceptance is refused while the account belongs elsewhere.
  const mail = await waitForMail(t.app, theirs.email, new RegExp(`buy for ${company.name} `));
  const token = new URL(mail.links.find((l) => l.includes("token="))!).searchParams.get("token")!;
  const accept = await call(theirs, "POST", "/api/company-invitations/accept", { token });
  expect(accept.statusCode).toBe(409);
  expect(accept.json().message).toBe(companyMessages.alreadyMember);
  expect((await call(theirs, "GET", "/api/company")).json().company.id).toBe(elsewhere.id);

  // A member of the owner's own company: they see their members anyway.
  const again = await invite(ours.email);
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(companyMessages.alreadyMember);
});

test("invitation mail is limited per invited address and per company: 429 with Retry-After", async () => {
  const company = await createCompany(t.app, admin);
  const owner = await joinCompany(t.app, admin, company.id, "owner");
  const other = await createCompany(t.app, admin);
  const otherOwner = await joinCompany(t.app, admin, other.id, "owner");
  const invite = (who: TestAccount, companyId: string, email: string) =>
    call(who, "POST", `/api/companies/${companyId}/invitations`, { email, role: "buyer" });
  const target = `inbox-${Date.now()}@example.com`;
  const invitesOf = async (companyId: string) =>
    (await auditOf(companyId)).filter(
      (a) => a.action === "company.invite" && a.summary.includes(target),
    ).length;

  const { perAddress, perCompany } = INVITATION_LIMITS;
  for (let i = 0; i < perAddress.max; i++) {
    expect((await invite(owner, company.id, target)).statusCode).toBe(201);
  }
  expectTooManyRequests(await invite(owner, company.id, target.toUpperCase()));
  // The address's budget is its own, whichever company sends.
  expect((await invite(otherOwner, other.id, target)).statusCode).toBe(429);
  // Nothing was made or mailed for the refused ones (the mail is queued with the invitation).
  expect(await invitesOf(company.id)).toBe(perAddress.max);
  expect(await invitesOf(other.id)).toBe(0);

  // The company's budget counts every invitation asked for it, to any address, refused or not:
  // so far the owner's own and the four above.
  let asked = 1 + perAddress.max + 1;
  let answer;
  do {
    asked += 1;
    answer = await invite(owner, company.id, `team-${asked}-${Date.now()}@example.com`);
  } while (answer.statusCode === 201 && asked < perCompany.max + 5);
  expect(answer.statusCode).toBe(429);
  expect(asked).toBe(perCompany.max + 1);
  expect(answer.headers["retry-after"]).toBeDefined();
  // Another company still invites.
  expect((await invite(otherOwner, other.id, `other-${Date.now()}@example.com`)).statusCode).toBe(
    201,
  );
});
