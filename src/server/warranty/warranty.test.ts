import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { auditRowsOf } from "../../../tests/support/audit";
import { type TestAccount } from "../../../tests/support/accounts";
import { waitForMail } from "../../../tests/support/mailbox";
import { multipartFiles, tinyGif, tinyPng } from "../../../tests/support/multipart";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, joinCompany } from "../../../tests/support/trade";
import { claimBody, shippedWarrantyOrder, WARRANTY_VIN } from "../../../tests/support/warranty";
import { dueDateWords } from "../../contract/payment-words";
import { warrantyMessages } from "../../contract/warranty";
import { shipments } from "../shipments/tables";
import { warrantyEnd } from "./eligibility";

/** Warranty claims (docs/warranty.md) through the API. */

const { t, call, admin, customer, other } = storeForTests({
  admin: "warranty-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "warranty-customer@example.com", other: "warranty-other@example.com" },
});

const VIN = WARRANTY_VIN;
const shippedOrder = (who = customer, qty = 3, ship = true) =>
  shippedWarrantyOrder(t, admin, who, qty, ship);

const fileClaim = (orderId: string, fields: object = {}, who = customer) =>
  call(who, "POST", "/api/warranty-claims", claimBody(orderId, fields));

test("the warranty ends its months after the line shipped, on the month's last day when shorter", () => {
  expect(warrantyEnd(new Date("2026-03-10T15:00:00Z"), 12)).toBe("2027-03-10");
  expect(warrantyEnd(new Date("2026-01-31T08:00:00Z"), 1)).toBe("2026-02-28");
  expect(warrantyEnd(new Date("2027-12-31T23:59:00Z"), 2)).toBe("2028-02-29");
});

test("a claim is filed, emailed, seen by its claimant and admins only, and its thread runs to a rejection", async () => {
  const { orderId } = await shippedOrder();
  const claimable = await call(customer, "GET", `/api/orders/${orderId}/warranty`);
  expect(claimable.statusCode, claimable.body).toBe(200);
  expect(claimable.json().lines[0]).toMatchObject({
    line: 1,
    shipped: 3,
    claimable: 3,
    warrantyMonths: 12,
    endsOn: warrantyEnd(new Date(), 12),
    reason: null,
  });

  const filed = await fileClaim(orderId, { qty: 2 });
  expect(filed.statusCode, filed.body).toBe(201);
  const claim = filed.json();
  expect(claim).toMatchObject({
    status: "submitted",
    qty: 2,
    vin: VIN,
    installedBy: "garage",
    customerInvoiceRef: "INV-778",
    claimant: { email: customer.email, company: null },
  });
  expect(claim.number).toMatch(/^WC-\d+$/);
  const mail = await waitForMail(t.app, customer.email, /warranty claim WC-\d+ is received/);
  expect(mail.text).toContain(`We received your warranty claim ${claim.number}`);

  // One unit is left to claim; another customer sees neither the order's lines nor the claim.
  expect(
    (await call(customer, "GET", `/api/orders/${orderId}/warranty`)).json().lines[0],
  ).toMatchObject({
    claimable: 1,
  });
  expect((await call(other, "GET", `/api/orders/${orderId}/warranty`)).statusCode).toBe(404);
  expect((await call(other, "GET", `/api/warranty-claims/${claim.id}`)).statusCode).toBe(404);
  expect((await fileClaim(orderId, {}, other)).statusCode).toBe(404);
  expect((await call(other, "GET", "/api/warranty-claims")).json()).toEqual([]);
  const mine = await call(customer, "GET", "/api/warranty-claims");
  expect(mine.json().map((c: { id: string }) => c.id)).toContain(claim.id);

  // The store asks; the claim waits for the customer, who is emailed the question.
  const asked = await call(admin, "POST", `/api/warranty-claims/${claim.id}/messages`, {
    body: "Please send a photo of the pads and the disc.",
    askForInformation: true,
  });
  expect(asked.statusCode, asked.body).toBe(200);
  expect(asked.json().status).toBe("information_requested");
  const question = await waitForMail(t.app, customer.email, /need more information/);
  expect(question.text).toContain("Please send a photo of the pads and the disc.");
  // Only the store asks.
  expect(
    (
      await call(customer, "POST", `/api/warranty-claims/${claim.id}/messages`, {
        body: "?",
        askForInformation: true,
      })
    ).statusCode,
  ).toBe(403);

  const answered = await call(customer, "POST", `/api/warranty-claims/${claim.id}/messages`, {
    body: "The disc is scored; photos to follow.",
  });
  expect(answered.statusCode, answered.body).toBe(200);
  expect(answered.json().status).toBe("submitted");
  expect(
    answered.json().events.map((e: { side: string; status: string | null }) => [e.side, e.status]),
  ).toEqual([
    ["customer", "submitted"],
    ["store", "information_requested"],
    ["customer", "submitted"],
  ]);

  // Customers cannot decide; the admin rejects with the reason, emailed and audited.
  expect(
    (await call(customer, "POST", `/api/warranty-claims/${claim.id}/reject`, { reason: "no" }))
      .statusCode,
  ).toBe(403);
  const rejected = await call(admin, "POST", `/api/warranty-claims/${claim.id}/reject`, {
    reason: "The wear is normal for 2,500 km of hard braking.",
  });
  expect(rejected.statusCode, rejected.body).toBe(200);
  expect(rejected.json()).toMatchObject({
    status: "rejected",
    rejectionReason: "The wear is normal for 2,500 km of hard braking.",
  });
  const rejectedMail = await waitForMail(t.app, customer.email, /was rejected/);
  expect(rejectedMail.text).toContain("Why: The wear is normal for 2,500 km of hard braking.");
  const audit = await auditRowsOf(t.database.db, "warranty.reject", claim.id);
  expect(audit).toHaveLength(1);

  // A decided claim takes no more messages or decisions; its units can be claimed again.
  const late = await call(customer, "POST", `/api/warranty-claims/${claim.id}/messages`, {
    body: "But…",
  });
  expect(late.statusCode).toBe(409);
  expect(late.json().message).toBe(warrantyMessages.notOpen);
  expect(
    (await call(admin, "POST", `/api/warranty-claims/${claim.id}/reject`, { reason: "again" }))
      .statusCode,
  ).toBe(409);
  expect(
    (await call(customer, "GET", `/api/orders/${orderId}/warranty`)).json().lines[0],
  ).toMatchObject({
    claimable: 3,
  });

  // The admin's queue filters by status and part.
  const queue = await call(admin, "GET", `/api/warranty-claims?status=rejected&q=${claim.number}`);
  expect(queue.json().map((c: { id: string }) => c.id)).toEqual([claim.id]);
  expect(queue.headers["x-total-count"]).toBe("1");
  expect(
    (await call(admin, "GET", `/api/warranty-claims?status=submitted&q=${claim.number}`)).json(),
  ).toEqual([]);
});

test("a claim outside the warranty is refused with the day it ended", async () => {
  const { orderId } = await shippedOrder();
  const longAgo = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000);
  await t.database.db
    .update(shipments)
    .set({ shippedAt: longAgo })
    .where(eq(shipments.orderId, orderId));
  const res = await fileClaim(orderId);
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().message).toBe(warrantyMessages.ended(dueDateWords(warrantyEnd(longAgo, 12))));
  expect(res.json().message).toMatch(/^This part's warranty ended on \d{1,2} [A-Z][a-z]{2} \d{4}$/);
});

test("only shipped units, never more than are left after returns and other claims, even at once", async () => {
  const unshipped = await shippedOrder(customer, 2, false);
  const notYet = await fileClaim(unshipped.orderId);
  expect(notYet.statusCode).toBe(422);
  expect(notYet.json().message).toBe(warrantyMessages.notShipped);

  const { orderId } = await shippedOrder(customer, 3);
  // One unit goes back as a return: two are left to claim.
  const returned = await call(customer, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "no_longer_needed",
  });
  expect(returned.statusCode, returned.body).toBe(201);
  const tooMany = await fileClaim(orderId, { qty: 3 });
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(warrantyMessages.tooMany(2));

  // Two claims of two at the same moment: one is filed, the other refused.
  const both = await Promise.all([fileClaim(orderId, { qty: 2 }), fileClaim(orderId, { qty: 2 })]);
  expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  // And what is claimed can no longer be returned.
  const returnable = await call(customer, "GET", `/api/orders/${orderId}/returnable`);
  expect(returnable.json().lines[0].returnable).toBe(0);
});

test("bad input gets a clear message on its field, and nothing is written", async () => {
  const { orderId } = await shippedOrder();
  const cases: [object, string, RegExp][] = [
    [{ vin: "1HGCM82643A004352" }, "vin", /check digit/],
    [{ vin: "ABC" }, "vin", /A VIN has 17 characters/],
    [{ failedOn: "2099-01-01", installedOn: "2099-01-01" }, "installedOn", /future/],
    [{ installedOn: "2020-01-01", failedOn: "2020-02-01" }, "installedOn", /order was placed on/],
    [{ mileageAtInstall: 50_000, mileageAtFailure: 40_000 }, "mileageAtFailure", /less than/],
    [{ description: "broke" }, "description", /at least 10 characters/],
    [{ installedBy: "robot" }, "installedBy", /who fitted/],
  ];
  for (const [fields, field, message] of cases) {
    const res = await fileClaim(orderId, fields);
    expect(res.statusCode, JSON.stringify(fields)).toBe(400);
    expect(res.json().fields?.[field], JSON.stringify(res.json())).toMatch(message);
  }
  expect((await fileClaim(orderId, { line: 9 })).json().message).toBe(
    warrantyMessages.noSuchLine(9),
  );
  expect(
    (await call(customer, "GET", "/api/warranty-claims"))
      .json()
      .filter((c: { orderId: string }) => c.orderId === orderId),
  ).toEqual([]);
});

test("a company's owner and buyers see and answer a member's claim; its viewers and outsiders do not", async () => {
  const company = await createCompany(t.app, admin);
  const owner = await joinCompany(t.app, admin, company.id, "owner");
  const buyer = await joinCompany(t.app, owner, company.id, "buyer");
  const viewer = await joinCompany(t.app, owner, company.id, "viewer");
  const { orderId } = await shippedOrder(buyer, 2);

  // The owner claims on the buyer's order for the company.
  const filed = await fileClaim(orderId, {}, owner);
  expect(filed.statusCode, filed.body).toBe(201);
  expect(filed.json().claimant.company).toBe(company.name);
  const id = filed.json().id;
  expect((await call(buyer, "GET", `/api/warranty-claims/${id}`)).statusCode).toBe(200);
  expect(
    (await call(buyer, "GET", "/api/warranty-claims")).json().map((c: { id: string }) => c.id),
  ).toContain(id);
  expect((await call(viewer, "GET", `/api/warranty-claims/${id}`)).statusCode).toBe(404);
  expect((await fileClaim(orderId, {}, viewer)).statusCode).toBe(404);
  expect((await call(customer, "GET", `/api/warranty-claims/${id}`)).statusCode).toBe(404);
  const reply = await call(buyer, "POST", `/api/warranty-claims/${id}/messages`, {
    body: "Fitted by our workshop on the same day.",
  });
  expect(reply.statusCode, reply.body).toBe(200);
});

test("the store inspects a claim with a failure code in use; admins keep the list of codes", async () => {
  const { orderId } = await shippedOrder();
  const claim = (await fileClaim(orderId)).json();
  const codes = await call(admin, "GET", "/api/warranty/failure-codes");
  expect(codes.statusCode).toBe(200);
  expect(codes.json()).toContainEqual({ code: "WEAR", label: "Premature wear", active: true });
  expect((await call(customer, "GET", "/api/warranty/failure-codes")).statusCode).toBe(403);

  // A new code; a retired one cannot be chosen, nor a code not on the list.
  const code = `C${process.pid}`.slice(0, 20);
  const added = await call(admin, "PUT", `/api/warranty/failure-codes/${code}`, {
    label: "Corrosion",
    active: true,
  });
  expect(added.statusCode, added.body).toBe(200);
  expect(
    (
      await call(admin, "PUT", `/api/warranty/failure-codes/${code}`, {
        label: "Corrosion",
        active: false,
      })
    ).json(),
  ).toEqual({ code, label: "Corrosion", active: false });
  const badCode = await call(admin, "PUT", "/api/warranty/failure-codes/not%20a%20code", {
    label: "X",
    active: true,
  });
  expect(badCode.statusCode).toBe(400);
  expect(badCode.json().message).toContain("A code is 1 to 20 capital letters, digits, - or _");
  for (const failureCode of [code, "NOPE"]) {
    const refused = await call(admin, "POST", `/api/warranty-claims/${claim.id}/inspect`, {
      failureCode,
      findings: "Pitting on the housing.",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.failureCode).toBe(warrantyMessages.unknownFailureCode);
  }
  expect(
    (
      await call(customer, "POST", `/api/warranty-claims/${claim.id}/inspect`, {
        failureCode: "WEAR",
        findings: "Mine.",
      })
    ).statusCode,
  ).toBe(403);

  const inspected = await call(admin, "POST", `/api/warranty-claims/${claim.id}/inspect`, {
    failureCode: "WEAR",
    findings: "Friction material worn to 2 mm after 2,500 km.",
  });
  expect(inspected.statusCode, inspected.body).toBe(200);
  expect(inspected.json()).toMatchObject({
    status: "inspected",
    inspection: {
      code: "WEAR",
      label: "Premature wear",
      findings: "Friction material worn to 2 mm after 2,500 km.",
    },
  });
  const mail = await waitForMail(t.app, customer.email, /We inspected the part of warranty claim/);
  expect(mail.text).toContain("Premature wear: Friction material worn to 2 mm after 2,500 km.");
  const audit = await auditRowsOf(t.database.db, "warranty.inspect", claim.id);
  expect(audit).toHaveLength(1);
  // The claimant sees it; an inspected claim is still open to messages and a decision.
  expect(
    (await call(customer, "GET", `/api/warranty-claims/${claim.id}`)).json().inspection.code,
  ).toBe("WEAR");
  expect(
    (
      await call(admin, "POST", `/api/warranty-claims/${claim.id}/reject`, {
        reason: "Normal wear.",
      })
    ).statusCode,
  ).toBe(200);
});

test("the claimant adds up to three photos while the claim is open; only those who see the claim see them", async () => {
  const { orderId } = await shippedOrder();
  const claim = (await fileClaim(orderId)).json();
  const upload = (who: TestAccount, files: { data: Buffer; filename: string; type: string }[]) => {
    const body = multipartFiles(files.map((f) => ({ ...f, field: "photos" })));
    return t.app.inject({
      method: "POST",
      url: `/api/warranty-claims/${claim.id}/photos`,
      headers: { cookie: who.cookie, ...body.headers },
      payload: body.payload,
    });
  };
  const png = { data: tinyPng, filename: "pump.png", type: "image/png" };

  const gif = await upload(customer, [{ data: tinyGif, filename: "pump.gif", type: "image/gif" }]);
  expect(gif.statusCode).toBe(400);
  expect(gif.json().fields.photos).toBe(warrantyMessages.photoType("pump.gif"));
  expect((await upload(admin, [png])).statusCode).toBe(403);
  expect((await upload(other, [png])).statusCode).toBe(404);

  const added = await upload(customer, [png, png]);
  expect(added.statusCode, added.body).toBe(201);
  expect(added.json()).toHaveLength(2);
  const tooMany = await upload(customer, [png, png]);
  expect(tooMany.statusCode).toBe(400);
  expect(tooMany.json().message).toBe(warrantyMessages.tooManyPhotos(1));

  const seen = (await call(admin, "GET", `/api/warranty-claims/${claim.id}`)).json();
  expect(seen.photos).toHaveLength(2);
  const url = seen.photos[0].url as string;
  for (const who of [customer, admin]) {
    const photo = await call(who, "GET", url);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/png");
    expect(photo.headers["cache-control"]).toBe("private, no-store");
  }
  expect((await call(other, "GET", url)).statusCode).toBe(404);
  expect((await call(undefined, "GET", url)).statusCode).toBe(401);

  await call(admin, "POST", `/api/warranty-claims/${claim.id}/reject`, { reason: "No defect." });
  const closed = await upload(customer, [png]);
  expect(closed.statusCode).toBe(409);
  expect(closed.json().message).toBe(warrantyMessages.photosClosed);
});
