import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { waitForMail } from "../../../tests/support/mailbox";
import { insertVehicle } from "../../../tests/support/factories";
import { shippedOrderOfNewPart } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import {
  returnMessages,
  type ReceivedCondition,
  type RestockingFee,
  type ReturnReason,
} from "../../contract/returns";
import { products } from "../catalog/tables";
import { loadConfig } from "../config";
import { orders } from "../orders/tables";
import { receiveRule } from "./receiving";
import { refunds, returnLines, returnRequests } from "./tables";

/** Receiving by quantity and condition, the restocking fee, RMA numbers (docs/returns.md). */

const FEE: RestockingFee = { percent: 15, conditions: ["used", "damaged"] };
// 2 units asked: $40.00 net, $3.30 tax.
const ASKED = [{ line: 1, qty: 2, netCents: 4000, taxCents: 330 }];
/** The rule for line 1 of ASKED received as `qty` units in `condition`, under FEE. */
const receiveLine1 = (reason: ReturnReason, qty: number, condition: ReceivedCondition) =>
  receiveRule(reason, ASKED, [{ line: 1, qty, condition }], FEE);

describe("the receive rule", () => {
  test("everything back as new: the whole amount, no fee, every unit back on sale", () => {
    const r = receiveLine1("did_not_fit", 2, "as_new");
    expect(r).toMatchObject({ refundNetCents: 4000, refundTaxCents: 330, feeCents: 0 });
    expect(r.lines[0]).toMatchObject({ receivedQty: 2, restock: 2 });
  });

  test("damaged with a 15% fee: the fee keeps 15% of net and tax; nothing back on sale", () => {
    const r = receiveLine1("no_longer_needed", 2, "damaged");
    // 15% of $40.00 = $6.00, of $3.30 = $0.50 (0.495 rounded half up).
    expect(r).toMatchObject({ refundNetCents: 3400, refundTaxCents: 280, feeCents: 650 });
    expect(r.lines[0]!.restock).toBe(0);
  });

  test("one of two arrived: half the net and tax", () => {
    const r = receiveLine1("did_not_fit", 1, "as_new");
    expect(r).toMatchObject({ refundNetCents: 2000, refundTaxCents: 165, feeCents: 0 });
    expect(r.lines[0]!.restock).toBe(1);
  });

  test("a wrong part refunds nothing and goes nowhere", () => {
    const r = receiveLine1("did_not_fit", 2, "wrong_part");
    expect(r).toMatchObject({ refundNetCents: 0, refundTaxCents: 0, feeCents: 0 });
    expect(r.lines[0]!.restock).toBe(0);
  });

  test("no fee when the store is at fault (arrived damaged, defective), nor on a condition not chosen", () => {
    for (const reason of ["damaged", "defective", "wrong_part"] as const) {
      const r = receiveLine1(reason, 2, "used");
      expect(r.feeCents, reason).toBe(0);
      expect(r.refundNetCents + r.refundTaxCents).toBe(4330);
    }
    const r = receiveLine1("did_not_fit", 2, "as_new");
    expect(r.feeCents).toBe(0);
  });

  test("a core never goes back on sale and never pays a fee", () => {
    const r = receiveLine1("core", 2, "used");
    expect(r).toMatchObject({ refundNetCents: 4000, feeCents: 0 });
    expect(r.lines[0]!.restock).toBe(0);
  });

  test("each line once, none left out, never more than was sent back", () => {
    const two = [...ASKED, { line: 2, qty: 1, netCents: 1000, taxCents: 0 }];
    expect(() =>
      receiveRule("did_not_fit", two, [{ line: 1, qty: 2, condition: "as_new" }], FEE),
    ).toThrow(returnMessages.receiveAllLines(2));
    expect(() => receiveLine1("did_not_fit", 3, "as_new")).toThrow(
      returnMessages.receiveTooMany(1, 2),
    );
    expect(() =>
      receiveRule(
        "did_not_fit",
        ASKED,
        [
          { line: 1, qty: 1, condition: "as_new" },
          { line: 1, qty: 1, condition: "used" },
        ],
        FEE,
      ),
    ).toThrow("Line 1 is listed twice");
    expect(() =>
      receiveRule("did_not_fit", ASKED, [{ line: 7, qty: 1, condition: "as_new" }], FEE),
    ).toThrow(returnMessages.receiveNoSuchLine(7));
  });
});

test("the Contact page's settings: lines split at |, the returns address defaults to the store's", () => {
  const set = loadConfig({
    DEMO: "false",
    STORE_ADDRESS: "1 Dock Road | Springfield",
    STORE_HOURS: "Mon–Fri 8–18|Sat 9–13",
    STORE_PHONE: "+1 555 0100",
    SELLER_EMAIL: "billing@example.com",
  }).contact;
  expect(set).toEqual({
    name: "PartsWorks",
    address: ["1 Dock Road", "Springfield"],
    returnsAddress: ["1 Dock Road", "Springfield"],
    phone: "+1 555 0100",
    email: "billing@example.com",
    hours: ["Mon–Fri 8–18", "Sat 9–13"],
  });
  expect(
    loadConfig({ DEMO: "false", RETURNS_ADDRESS: "Dock 4|Springfield" }).contact.returnsAddress,
  ).toEqual(["Dock 4", "Springfield"]);
  expect(loadConfig({ DEMO: "false" }).contact).toMatchObject({
    address: [],
    phone: null,
    hours: [],
  });
});

describe("through the API", () => {
  const { t, call, admin, customer } = storeForTests({
    admin: "rma-admin@example.com",
    shipsToTestAddress: true,
    customers: { customer: "rma-customer@example.com" },
    env: { RETURNS_ADDRESS: "Returns, Dock 4|1 Test Road" },
  });

  const stockOf = async (id: string) =>
    (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!.availableQuantity;

  /** A $20.00 part; the customer buys 3 and pays; it ships; they return 2; the admin approves. */
  async function approvedReturn(body: object = { reason: "no_longer_needed" }) {
    const { orderId, part } = await shippedOrderOfNewPart(t, customer, admin, 3, {
      priceCents: 2000,
      availableQuantity: 50,
    });
    const asked = await call(customer, "POST", `/api/orders/${orderId}/returns`, {
      lines: [{ line: 1, qty: 2 }],
      ...body,
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().id as string;
    const ok = await call(admin, "POST", `/api/returns/${id}/decision`, { decision: "approve" });
    expect(ok.statusCode, ok.body).toBe(200);
    return { id, orderId, part, asked: asked.json() };
  }

  const setFee = (fee: RestockingFee) => call(admin, "PUT", "/api/returns/restocking-fee", fee);

  test("RMA numbers are sequential; the request is confirmed by email with its number", async () => {
    const a = await approvedReturn();
    const b = await approvedReturn({ reason: "defective" });
    expect(a.asked.rma).toMatch(/^RMA-\d{5,}$/);
    expect(Number(b.asked.rma.slice(4))).toBe(Number(a.asked.rma.slice(4)) + 1);
    expect(b.asked.reason).toBe("defective");
    const mail = await waitForMail(
      t.app,
      customer.email,
      new RegExp(`${a.asked.rma} .* is requested`),
    );
    expect(mail.text).toContain(`Its number is ${a.asked.rma}`);
    expect(mail.text).toContain("/contact");
    // The approval names the RMA and the returns address from the configuration.
    const approved = await waitForMail(
      t.app,
      customer.email,
      new RegExp(`${a.asked.rma} .* is approved`),
    );
    expect(approved.text).toContain(`write the return number ${a.asked.rma} on the parcel`);
    expect(approved.text).toContain(
      "send them to our returns address: Returns, Dock 4, 1 Test Road.",
    );
  });

  test("received damaged with a 15% fee: the refund is what arrived less the fee; no stock back", async () => {
    expect((await setFee(FEE)).statusCode).toBe(200);
    const { id, part } = await approvedReturn();
    const stock = await stockOf(part.id);
    const res = await call(admin, "POST", `/api/returns/${id}/receive`, {
      lines: [{ line: 1, qty: 2, condition: "damaged" }],
      expectedRefund: 34,
    });
    expect(res.statusCode, res.body).toBe(200);
    const ret = res.json();
    expect(ret).toMatchObject({ status: "refunded", amount: 34, fee: 6 });
    expect(ret.lines[0].received).toEqual({ qty: 2, condition: "damaged", fee: 6, refund: 34 });
    expect(await stockOf(part.id)).toBe(stock);
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, id));
    expect(refund!.amountCents).toBe(3400);
    const mail = await waitForMail(t.app, customer.email, new RegExp(`${ret.rma} .* is refunded`));
    expect(mail.text).toContain("Restocking fee");
    expect(mail.text).toContain("$34.00");
    expect((await setFee({ percent: 0, conditions: [] })).statusCode).toBe(200);
  });

  test("one of two back as new: half refunded, one back on sale; all wrong parts: closed, nothing refunded", async () => {
    const half = await approvedReturn();
    const stock = await stockOf(half.part.id);
    const res = await call(admin, "POST", `/api/returns/${half.id}/receive`, {
      lines: [{ line: 1, qty: 1, condition: "as_new" }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "refunded", amount: 20 });
    expect(await stockOf(half.part.id)).toBe(stock + 1);

    const wrong = await approvedReturn();
    const closed = await call(admin, "POST", `/api/returns/${wrong.id}/receive`, {
      lines: [{ line: 1, qty: 2, condition: "wrong_part" }],
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: "closed", amount: 0, creditNote: null });
    expect(
      await t.database.db.select().from(refunds).where(eq(refunds.returnId, wrong.id)),
    ).toHaveLength(0);
  });

  test("bad input is refused (400, 422, 409), never 500, and leaves the return approved", async () => {
    const { id, part } = await approvedReturn();
    const stock = await stockOf(part.id);
    const bad: [object, number, string?][] = [
      [{ lines: [{ line: 1, qty: -1, condition: "as_new" }] }, 400],
      [{ lines: [{ line: 1, qty: 1, condition: "broken" }] }, 400],
      [{ lines: [] }, 400],
      [{ lines: [{ line: 1, qty: "two", condition: "used" }] }, 400],
      [
        { lines: [{ line: 1, qty: 3, condition: "used" }] },
        422,
        returnMessages.receiveTooMany(1, 2),
      ],
      [
        { lines: [{ line: 2, qty: 1, condition: "used" }] },
        422,
        returnMessages.receiveNoSuchLine(2),
      ],
      [
        { lines: [{ line: 1, qty: 2, condition: "as_new" }], expectedRefund: 12.34 },
        409,
        returnMessages.refundChanged("$40.00"),
      ],
    ];
    for (const [body, status, message] of bad) {
      const res = await call(admin, "POST", `/api/returns/${id}/receive`, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      if (message) expect(res.json().message).toBe(message);
    }
    expect((await call(admin, "GET", "/api/returns?status=approved")).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, status: "approved" })]),
    );
    expect(await stockOf(part.id)).toBe(stock);
    for (const fee of [
      { percent: 101, conditions: [] },
      { percent: 5, conditions: ["wrong_part"] },
      { percent: 1.5, conditions: [] },
    ]) {
      expect((await call(admin, "PUT", "/api/returns/restocking-fee", fee)).statusCode).toBe(400);
    }
  });

  test("a receipt that fails half-way (the refund over the order's total) leaves everything as it was", async () => {
    const { id, orderId, part } = await approvedReturn();
    const stock = await stockOf(part.id);
    // Someone refunded nearly all of the order already: this refund would go over its total.
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    await t.database.db.insert(refunds).values({
      orderId,
      kind: "return",
      netCents: order!.totalCents - 100,
      taxCents: 0,
      amountCents: order!.totalCents - 100,
      currency: order!.currency,
      gateway: "test-card",
      status: "succeeded",
    });
    const res = await call(admin, "POST", `/api/returns/${id}/receive`, {
      lines: [{ line: 1, qty: 2, condition: "as_new" }],
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/^This would refund /);
    const [row] = await t.database.db
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.id, id));
    expect(row).toMatchObject({ status: "approved", receivedAt: null });
    const [line] = await t.database.db
      .select()
      .from(returnLines)
      .where(eq(returnLines.returnId, id));
    expect(line).toMatchObject({ receivedQty: null, condition: null, feeCents: 0 });
    expect(await stockOf(part.id)).toBe(stock);
  });

  test("did not fit: the vehicle picked from the catalog is stored by its ids and named by the server", async () => {
    const roadster = await insertVehicle(t.database.db, "Rmatest", "Roadster", [2019]);
    const { asked, id } = await approvedReturn({
      reason: "did_not_fit",
      vehicleChoice: roadster.choice,
      vehicle: "ignored words",
    });
    expect(asked).toMatchObject({ vehicle: "2019 Rmatest Roadster", vehicleFromCatalog: true });
    const [row] = await t.database.db
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.id, id));
    expect(row!.vehicleBaseVehicleId).toBe(roadster.baseVehicleIds[0]);

    // Free text stays the fallback; a vehicle the catalog does not know is a 400.
    const text = await approvedReturn({ reason: "did_not_fit", vehicle: "1967 Moskvitch 408" });
    expect(text.asked).toMatchObject({ vehicle: "1967 Moskvitch 408", vehicleFromCatalog: false });
    const { orderId } = await shippedOrderOfNewPart(t, customer, admin, 1, {
      priceCents: 500,
      availableQuantity: 5,
    });
    const unknown = await call(customer, "POST", `/api/orders/${orderId}/returns`, {
      lines: [{ line: 1, qty: 1 }],
      reason: "did_not_fit",
      vehicleChoice: { ...roadster.choice, model: 999_999 },
    });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().error).toBe("unknown_vehicle");
  });

  test("the Contact page's details: public, as configured", async () => {
    const res = await call(undefined, "GET", "/api/contact");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ returnsAddress: ["Returns, Dock 4", "1 Test Road"] });
  });
});
