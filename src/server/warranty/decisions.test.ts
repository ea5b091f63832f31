import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { availableQuantityOf } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { storeForTests } from "../../../tests/support/store";
import { claimBody, shippedWarrantyOrder } from "../../../tests/support/warranty";
import { invoiceMessages } from "../../contract/invoices";
import { paymentWords } from "../../contract/payment-words";
import { returnMessages } from "../../contract/returns";
import { FAILURE_CODE_MESSAGE, warrantyMessages } from "../../contract/warranty";
import { orders } from "../orders/tables";
import { refunds, returnRequests } from "../returns/tables";
import { shippedUnits } from "../shipments/tables";

/**
 * A claim's decisions (docs/warranty.md "Its life"): the part asked back as a return, received,
 * approved with a refund by the returns' rules or a $0 replacement order, once under races.
 */

const { t, call, admin, customer } = storeForTests({
  admin: "decisions-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "decisions-customer@example.com" },
  env: { RETURNS_ADDRESS: "Returns|1 Dock Rd|Austin" },
});

/** A shipped order of 3 and a claim of `qty` of its line. */
async function claimOf(qty: number) {
  const { orderId, part } = await shippedWarrantyOrder(t, admin, customer, 3);
  const filed = await call(customer, "POST", "/api/warranty-claims", claimBody(orderId, { qty }));
  expect(filed.statusCode, filed.body).toBe(201);
  return { orderId, part, claim: filed.json() as { id: string; number: string } };
}

const decide = (claimId: string, action: string, body: object = {}) =>
  call(admin, "POST", `/api/warranty-claims/${claimId}/${action}`, body);

test("the part asked back is a return (RMA) approved at once; received, it waits for the claim; the refund follows the returns' rules", async () => {
  const { orderId, part, claim } = await claimOf(2);
  const asked = await decide(claim.id, "request-part", {
    instructions: "Leave the pads in their box.",
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const rma = asked.json().partReturn.rma;
  expect(asked.json()).toMatchObject({
    status: "part_requested",
    partReturn: { rma: expect.stringMatching(/^RMA-\d+$/), status: "approved" },
  });
  const mail = await waitForMail(t.app, customer.email, new RegExp(`send us the part.*${rma}`));
  expect(mail.text).toContain(`write the return number ${rma} on the parcel`);
  expect(mail.text).toContain("Leave the pads in their box.");

  // Asked once; not decided while the part is on its way.
  expect((await decide(claim.id, "request-part")).json().message).toBe(
    warrantyMessages.partAsked(rma),
  );
  // Inspected from its photos meanwhile, it still waits for its part before a decision.
  const inspected = await decide(claim.id, "inspect", {
    failureCode: "WEAR",
    findings: "The photos show worn pads.",
  });
  expect(inspected.json().status).toBe("inspected");
  const early = await decide(claim.id, "approve", { remedy: "refund" });
  expect(early.statusCode).toBe(409);
  expect(early.json().message).toBe(warrantyMessages.partOnItsWay(rma));

  // The claimed units are counted once: by the return, not by the claim as well.
  const claimable = await call(customer, "GET", `/api/orders/${orderId}/warranty`);
  expect(claimable.json().lines[0].claimable).toBe(1);
  const returnable = await call(customer, "GET", `/api/orders/${orderId}/returnable`);
  expect(returnable.json().lines[0].returnable).toBe(1);

  // Received through the returns' receiving: nothing back on sale, nothing refunded yet.
  const returnId = asked.json().partReturn.id;
  const stockBefore = await availableQuantityOf(t.database.db, part.id);
  const received = await call(admin, "POST", `/api/returns/${returnId}/receive`, {
    lines: [{ line: 1, qty: 2, condition: "used" }],
    expectedRefund: 0,
  });
  expect(received.statusCode, received.body).toBe(200);
  expect(received.json()).toMatchObject({
    status: "inspecting",
    warrantyClaim: claim.number,
    amount: 40,
  });
  expect(await availableQuantityOf(t.database.db, part.id)).toBe(stockBefore);
  expect(await t.database.db.select().from(refunds).where(eq(refunds.returnId, returnId))).toEqual(
    [],
  );
  const arrived = await call(customer, "GET", `/api/warranty-claims/${claim.id}`);
  expect(arrived.json()).toMatchObject({
    status: "part_received",
    partReturn: { status: "inspecting" },
  });
  await waitForMail(t.app, customer.email, /received the part of warranty claim/);

  // Approved with a refund: the return's refund, through the gateway, with its credit note.
  const approved = await decide(claim.id, "approve", {
    remedy: "refund",
    message: "Sorry for the trouble.",
  });
  expect(approved.statusCode, approved.body).toBe(200);
  expect(approved.json()).toMatchObject({
    status: "approved",
    remedy: "refund",
    replacementOrder: null,
    partReturn: { status: "refunded" },
  });
  const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, returnId));
  expect(refund).toMatchObject({ status: "succeeded", amountCents: 4000 });
  const mail2 = await waitForMail(
    t.app,
    customer.email,
    new RegExp(`warranty claim ${claim.number} is approved`),
  );
  expect(mail2.text).toContain("We refund the part you sent back");
  await waitForMail(t.app, customer.email, new RegExp(`return ${rma} .* is refunded`, "i"));
  // Decided once.
  expect((await decide(claim.id, "approve", { remedy: "refund" })).statusCode).toBe(409);
});

test("a refund needs the part back; a replacement is a $0 order placed once under concurrent clicks, shipped with tracking", async () => {
  const { part, claim } = await claimOf(1);
  const refund = await decide(claim.id, "approve", { remedy: "refund" });
  expect(refund.statusCode).toBe(422);
  expect(refund.json().message).toBe(warrantyMessages.refundNeedsPart);

  const stockBefore = (await availableQuantityOf(t.database.db, part.id))!;
  const both = await Promise.all([
    decide(claim.id, "approve", { remedy: "replacement" }),
    decide(claim.id, "approve", { remedy: "replacement" }),
  ]);
  expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  const approved = both.find((r) => r.statusCode === 200)!.json();
  expect(approved).toMatchObject({ status: "approved", remedy: "replacement" });
  const replacement = approved.replacementOrder;
  expect(replacement).toMatchObject({ number: expect.stringMatching(/^PW-\d+$/), status: "paid" });
  expect(await availableQuantityOf(t.database.db, part.id)).toBe(stockBefore - 1);
  const placed = await t.database.db
    .select()
    .from(orders)
    .where(eq(orders.transactionId, `warranty:${claim.number}`));
  expect(placed).toHaveLength(1);
  expect(placed[0]).toMatchObject({ totalCents: 0, status: "paid", paidWith: "warranty" });

  // The customer's order: no charge, said so, and shipped as any order is.
  const order = (await call(customer, "GET", `/api/orders/${replacement.id}`)).json();
  expect(order).toMatchObject({ total: 0, warrantyClaim: claim.number, poReference: null });
  const returnable = (
    await call(customer, "GET", `/api/orders/${replacement.id}/returnable`)
  ).json();
  expect(returnable).toMatchObject({ eligible: false, reason: returnMessages.replacement });
  const invoice = await call(customer, "GET", `/api/orders/${replacement.id}/invoice`);
  expect(invoice.statusCode).toBe(404);
  expect(invoice.json().message).toBe(invoiceMessages.replacement);
  expect(paymentWords(order)).toEqual({
    badge: "No charge",
    line: `No charge · warranty replacement for claim ${claim.number}`,
  });
  const shipped = await call(admin, "PATCH", `/api/orders/${replacement.id}/status`, {
    status: "shipped",
    carrier: "ups",
    trackingNumber: "1Z999AA10123456784",
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  // A replacement is not a sale: the report's units sold of the part stay the original 3.
  const sold = await t.database.db
    .select({ qty: shippedUnits.qty })
    .from(shippedUnits)
    .where(eq(shippedUnits.productId, part.id));
  expect(sold).toEqual([{ qty: 3 }]);
  const seen = (await call(customer, "GET", `/api/warranty-claims/${claim.id}`)).json();
  expect(seen.replacementOrder).toMatchObject({
    status: "shipped",
    carrier: "ups",
    trackingNumber: "1Z999AA10123456784",
    trackingUrl: expect.stringContaining("1Z999AA10123456784"),
  });
  const mail = await waitForMail(
    t.app,
    customer.email,
    new RegExp(`warranty claim ${claim.number} is approved`),
  );
  expect(mail.text).toContain(`a replacement at no charge: order ${replacement.number}`);
});

test("a rejected claim's returned part refunds nothing: its return is closed", async () => {
  const { orderId, claim } = await claimOf(1);
  const asked = (await decide(claim.id, "request-part")).json();
  const returnId = asked.partReturn.id;
  expect(
    (
      await call(admin, "POST", `/api/returns/${returnId}/receive`, {
        lines: [{ line: 1, qty: 1, condition: "used" }],
      })
    ).statusCode,
  ).toBe(200);
  const rejected = await decide(claim.id, "reject", { reason: "The pads were fitted wrongly." });
  expect(rejected.statusCode, rejected.body).toBe(200);
  expect(rejected.json()).toMatchObject({ status: "rejected", partReturn: { status: "closed" } });
  // The closed return says it refunds nothing.
  const [closed] = (await call(admin, "GET", `/api/orders/${orderId}/returns`)).json();
  expect(closed).toMatchObject({ status: "closed", amount: 0, warrantyClaim: claim.number });
  const [r] = await t.database.db
    .select({ status: returnRequests.status, claim: returnRequests.warrantyClaim })
    .from(returnRequests)
    .where(eq(returnRequests.id, returnId));
  expect(r).toEqual({ status: "closed", claim: Number(claim.number.slice(3)) });
});

test("customers cannot decide claims", async () => {
  const { claim } = await claimOf(1);
  for (const action of ["approve", "request-part"]) {
    const res = await call(customer, "POST", `/api/warranty-claims/${claim.id}/${action}`, {
      remedy: "replacement",
    });
    expect(res.statusCode).toBe(403);
  }
});

test("the admin's queue filters by the inspection's failure code; a malformed code is refused", async () => {
  const leak = (await claimOf(1)).claim;
  const noise = (await claimOf(1)).claim;
  for (const [c, failureCode] of [
    [leak, "LEAK"],
    [noise, "NOISE"],
  ] as const) {
    const res = await decide(c.id, "inspect", { failureCode, findings: "Seen on the bench." });
    expect(res.statusCode, res.body).toBe(200);
  }
  const listed = await call(admin, "GET", "/api/warranty-claims?failureCode=LEAK&limit=100");
  expect(listed.statusCode, listed.body).toBe(200);
  const ids = listed.json().map((c: { id: string }) => c.id);
  expect(ids).toContain(leak.id);
  expect(ids).not.toContain(noise.id);
  const bad = await call(admin, "GET", "/api/warranty-claims?failureCode=leak%20'");
  expect(bad.statusCode).toBe(400);
  expect(bad.body).toContain(FAILURE_CODE_MESSAGE);
});
