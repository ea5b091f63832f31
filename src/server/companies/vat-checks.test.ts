import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { requestsAs } from "../../../tests/support/requests";
import { testAppWithAdmin } from "../../../tests/support/store";
import type { TestApp } from "../../../tests/support/test-app";
import { companyWithBuyer, createCompany } from "../../../tests/support/trade";
import { startViesStandIn, type ViesStandIn } from "../../../tests/support/vies-stand-in";
import { adminAuditLog } from "../audit/tables";
import type { JobQueue } from "../jobs/queue";
import { createViesClient } from "../vies/client";
import { companyVatChecks } from "./tables";
import { createVatChecks, RECHECK_AFTER_DAYS, VAT_CHECK_QUEUE } from "./vat-checks";

// EU VAT numbers checked against VIES (docs/tax.md "VIES"), against a local stand-in of its REST
// API: recorded → a job asks VIES → the answer and its date kept; invalid stops reverse charge;
// unanswered keeps the format check and is retried; the admin's "Check again now"; the sweep.
// The store sells from Germany and names its own VAT number, so VIES gives consultation numbers.

let t: TestApp;
let admin: TestAccount;
let vies: ViesStandIn;
let euStandard: string;
const call = requestsAs(() => t.app);

beforeAll(async () => {
  vies = await startViesStandIn();
  ({ t, admin } = await testAppWithAdmin("vies-admin@example.com", {
    STORE_COUNTRY: "DE",
    SELLER_TAX_ID: "DE811907980",
    VIES_URL: vies.url,
    VIES_TIMEOUT_SECONDS: "0.5",
    // The tax rules in the store's currency (MARKET_CHOICE off: no quote priced in Europe).
    MARKET_CHOICE: "false",
  }));
  const eu = await call(admin, "POST", "/api/shipping-zones", {
    name: "EU",
    countries: ["DE", "FR", "NL"],
    methods: [{ name: "EU Standard", estimate: "3-5 days", kind: "flat", price: 20 }],
  });
  euStandard = eu.json().methods[0].id;
  expect(
    (await call(admin, "POST", "/api/tax-rates", { country: "FR", name: "TVA", rate: 20 }))
      .statusCode,
  ).toBe(201);
});
afterAll(async () => {
  await t.close();
  await vies.close();
});

const taxOf = async (companyId: string) =>
  (await call(admin, "GET", `/api/companies/${companyId}/tax`)).json();

/** Records `taxId` as the company's tax id; answers the tax status the PUT answered. */
async function record(companyId: string, taxId: string) {
  const put = await call(admin, "PUT", `/api/companies/${companyId}/tax`, {
    taxId,
    exemptionCertificate: null,
  });
  expect(put.statusCode).toBe(200);
  return put.json();
}

/** Waits until the job has recorded VIES's answer (or its failure) for the company. */
const viesStatus = (companyId: string) =>
  expect.poll(async () => (await taxOf(companyId)).vies?.status, { timeout: 15_000 });

/** Waits until `n` check jobs of the company have run to the end. */
const jobsDone = (companyId: string, n: number) =>
  expect
    .poll(
      async () =>
        (
          await t.database.db.execute<{ n: number }>(
            sql`select count(*)::int as n from pgboss.job
                 where name = ${VAT_CHECK_QUEUE} and data->>'companyId' = ${companyId}
                   and state = 'completed'`,
          )
        ).rows[0]!.n,
      { timeout: 15_000 },
    )
    .toBe(n);

/** The buyer's cart quote for one 100.00 part delivered to Paris: its tax name and tax. */
async function quoteToParis(buyer: TestAccount) {
  const part = await insertProduct(t.database.db, {
    priceCents: 10_000,
    minimumOrder: 1,
    partNumber: `VIES-${Math.random().toString(36).slice(2, 8)}`,
  });
  expect((await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 1 })).statusCode).toBe(200);
  const saved = await call(buyer, "POST", "/api/user/addresses", {
    name: "Marie Curie",
    line1: "1 Rue de la Paix",
    city: "Paris",
    region: "",
    postalCode: "75002",
    country: "FR",
    phone: "0155550100",
  });
  const quote = await call(buyer, "POST", "/api/cart/quote", {
    addressId: saved.json().id,
    shippingMethodId: euStandard,
  });
  expect(quote.statusCode).toBe(200);
  await call(buyer, "DELETE", `/api/cart/items/${part.id}`);
  return { taxName: quote.json().taxName as string, tax: quote.json().tax as number };
}

test("a recorded EU VAT number is confirmed by VIES: its date, consultation number and name kept; the owner sees it", async () => {
  const company = await companyWithBuyer(t.app, admin);
  vies.set("DE129273398", "valid");
  const recorded = await record(company.id, "de 129 273 398");
  // Saved at once; the check follows as a job.
  expect(recorded.reverseChargeEligible).toBe(true);
  await viesStatus(company.id).toBe("valid");
  const tax = await taxOf(company.id);
  expect(tax).toMatchObject({
    taxId: "DE129273398",
    reverseChargeEligible: true,
    vies: {
      vatId: "DE129273398",
      status: "valid",
      checkedAt: "2026-12-04T10:15:00.000Z",
      consultationNumber: expect.stringMatching(/^WAPIAAAAX\d+$/),
      viesName: "TRADER DE129273398",
      lastFailure: null,
    },
  });
  expect(vies.callsFor("DE129273398")[0]).toMatchObject({
    requesterMemberStateCode: "DE",
    requesterNumber: "811907980",
  });
  // The owner sees the check on My company; a buyer does not.
  const mine = (await call(company.owner, "GET", "/api/company")).json();
  expect(mine.company.vatCheck).toEqual(tax.vies);
  expect((await call(company.buyer, "GET", "/api/company")).json().company.vatCheck).toBe(null);
  // Saving the same confirmed number again asks nobody.
  const calls = vies.callsFor("DE129273398").length;
  await record(company.id, "DE129273398");
  expect((await taxOf(company.id)).vies.status).toBe("valid");
  expect(vies.callsFor("DE129273398")).toHaveLength(calls);
});

test("VIES says invalid: no reverse charge on new quotes until VIES confirms it (Check again now)", async () => {
  const company = await companyWithBuyer(t.app, admin);
  vies.set("FR40303265045", "invalid");
  await record(company.id, "FR40303265045");
  await viesStatus(company.id).toBe("invalid");
  expect(await taxOf(company.id)).toMatchObject({
    taxIdValidatedAt: null,
    reverseChargeEligible: false,
    vies: { status: "invalid", checkedAt: "2026-12-04T10:15:00.000Z" },
  });
  // Delivered to France from Germany: French VAT, not reverse charge.
  expect(await quoteToParis(company.buyer)).toEqual({ taxName: "TVA", tax: 24 });
  // Recording the same number again does not make it count as checked (and VIES is asked again).
  expect((await record(company.id, "FR40303265045")).reverseChargeEligible).toBe(false);
  await jobsDone(company.id, 2);
  expect(await taxOf(company.id)).toMatchObject({
    reverseChargeEligible: false,
    vies: { status: "invalid" },
  });

  // VIES now knows it: the admin asks again, and reverse charge applies again.
  vies.set("FR40303265045", "valid");
  const again = await call(admin, "POST", `/api/companies/${company.id}/tax/vies-check`);
  expect(again.statusCode).toBe(200);
  expect(again.json()).toMatchObject({ reverseChargeEligible: true, vies: { status: "valid" } });
  expect(await quoteToParis(company.buyer)).toEqual({ taxName: "VAT reverse charge", tax: 0 });
  const [audit] = await t.database.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "company.tax.vies"));
  expect(audit?.summary).toMatch(/^Asked VIES about FR40303265045 of .*: valid$/);
});

test("VIES does not answer: the format check holds, the job is retried, and the answer comes later", async () => {
  const company = await createCompany(t.app, admin);
  vies.set("NL123456789B01", "unavailable");
  await record(company.id, "NL123456789B01");
  await viesStatus(company.id).toBe("unanswered");
  expect(await taxOf(company.id)).toMatchObject({
    reverseChargeEligible: true,
    vies: { status: "unanswered", checkedAt: null, lastFailure: "MS_UNAVAILABLE" },
  });
  // pg-boss holds the job for a retry (with backoff), not failed for good.
  // (Polled: pg-boss marks the job once its handler has thrown, just after the row is written.)
  const jobs = async () =>
    (
      await t.database.db.execute<{ state: string; retry_limit: number; retry_backoff: boolean }>(
        sql`select state, retry_limit, retry_backoff from pgboss.job
             where name = ${VAT_CHECK_QUEUE} and data->>'companyId' = ${company.id}`,
      )
    ).rows;
  await expect
    .poll(jobs, { timeout: 10_000 })
    .toEqual([{ state: "retry", retry_limit: 5, retry_backoff: true }]);

  // Too slow: "Check again now" answers within VIES_TIMEOUT_SECONDS, still unanswered.
  vies.set("NL123456789B01", "slow");
  const slow = await call(admin, "POST", `/api/companies/${company.id}/tax/vies-check`);
  expect(slow.statusCode).toBe(200);
  expect(slow.json().vies).toMatchObject({
    status: "unanswered",
    lastFailure: "no answer within 0.5 s",
  });
  vies.set("NL123456789B01", "valid");
  const answered = await call(admin, "POST", `/api/companies/${company.id}/tax/vies-check`);
  expect(answered.json().vies).toMatchObject({ status: "valid", lastFailure: null });
});

test("a company without an EU VAT number has nothing to check (409); another id has no VIES row", async () => {
  const company = await createCompany(t.app, admin);
  const none = await call(admin, "POST", `/api/companies/${company.id}/tax/vies-check`);
  expect(none.statusCode).toBe(409);
  expect(none.json().message).toBe("This company has no EU VAT number to check: record one first");
  await call(admin, "PUT", `/api/companies/${company.id}/tax`, {
    taxId: "12-3456789",
    taxIdCountry: "US",
    exemptionCertificate: null,
  });
  expect((await taxOf(company.id)).vies).toBeNull();
  expect(
    (await call(admin, "POST", `/api/companies/${company.id}/tax/vies-check`)).statusCode,
  ).toBe(409);
  const missing = await call(
    admin,
    "POST",
    "/api/companies/00000000-0000-4000-8000-000000000000/tax/vies-check",
  );
  expect(missing.statusCode).toBe(404);
});

test("changing the id through the company form forgets its VIES check", async () => {
  const company = await createCompany(t.app, admin);
  vies.set("DE999999999", "valid");
  await record(company.id, "DE999999999");
  await viesStatus(company.id).toBe("valid");
  await call(admin, "PATCH", `/api/companies/${company.id}`, { taxId: "DE888888888" });
  expect(await taxOf(company.id)).toMatchObject({ reverseChargeEligible: false, vies: null });
});

test("the sweep queues numbers answered over 30 days ago, unanswered ones tried a while ago, and numbers recorded without a row", async () => {
  const db = t.database.db;
  const sent: unknown[] = [];
  const fakeBoss = {
    send: async (_queue: string, data: unknown) => void sent.push(data),
    notifyWorker: () => {},
  };
  const queue = {
    setUp: () => {},
    alongside: () => {},
    ready: async () => fakeBoss,
  } as unknown as JobQueue;
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  const checks = createVatChecks(db, {
    vies: createViesClient({ url: vies.url, timeoutMs: 500 }),
    queue,
    log,
  });
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 3600 * 1000);
  const [fresh, old, unanswered, triedJustNow, adopted] = await Promise.all(
    [1, 2, 3, 4, 5].map(() => createCompany(t.app, admin)),
  );
  const ids = ["DE100000001", "DE100000002", "DE100000003", "DE100000004", "DE100000005"];
  for (const [i, c] of [fresh, old, unanswered, triedJustNow, adopted].entries()) {
    await record(c!.id, ids[i]!);
    // Its job done first, so it cannot write over the rows set below.
    await viesStatus(c!.id).toBe("valid");
  }
  // Whatever the jobs did, the rows are set as the case says (the test writes them directly).
  const set = (companyId: string, v: Partial<typeof companyVatChecks.$inferInsert>) =>
    db.update(companyVatChecks).set(v).where(eq(companyVatChecks.companyId, companyId));
  const answered = (days: number) => ({
    answer: "valid" as const,
    answeredAt: at(days),
    lastAttemptAt: at(days),
    lastFailure: null,
  });
  await set(fresh!.id, answered(RECHECK_AFTER_DAYS - 1));
  await set(old!.id, answered(RECHECK_AFTER_DAYS + 1));
  await set(unanswered!.id, {
    answer: null,
    answeredAt: null,
    lastAttemptAt: at(1),
    lastFailure: "MS_UNAVAILABLE",
  });
  await set(triedJustNow!.id, {
    answer: null,
    answeredAt: null,
    lastAttemptAt: new Date(),
    lastFailure: "MS_UNAVAILABLE",
  });
  // Recorded while checks were off: no row.
  await db.delete(companyVatChecks).where(eq(companyVatChecks.companyId, adopted!.id));
  // Other companies' rows from the tests above stay out of the way: only these five count.
  const ours = new Set([fresh, old, unanswered, triedJustNow, adopted].map((c) => c!.id));
  await checks.sweep();
  const queued = (sent as { companyId: string; vatId: string }[]).filter((d) =>
    ours.has(d.companyId),
  );
  expect(queued.map((d) => d.vatId).sort()).toEqual(["DE100000002", "DE100000003", "DE100000005"]);
});
