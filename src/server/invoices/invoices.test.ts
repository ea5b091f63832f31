import { count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { markOrderPaid, payAllInParallel, unpaidOrders } from "../../../tests/support/invoices";
import { waitForMail } from "../../../tests/support/mailbox";
import { orderAndCharge, paidOrderOfNewPart } from "../../../tests/support/payments";
import { pdfText } from "../../../tests/support/pdf-text";
import { storeForTests } from "../../../tests/support/store";
import { invoiceMessages } from "../../contract/invoices";
import { companies, companyMembers } from "../companies/tables";
import { invoices } from "./tables";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { user } from "../users/tables";
import { documentNumber } from "./numbering";
import { createInvoiceService, renderStored } from "./service";

const seller = {
  name: "PartsWorks Test Ltd",
  address: ["1 Test Street", "Leeds LS1 4AP", "United Kingdom"],
  taxId: "GB123456789",
  email: "accounts@partsworks.example",
};

const { t, call, admin, customer, other } = storeForTests({
  admin: "invoice-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: {}, other: {} },
  env: {
    SELLER_NAME: seller.name,
    SELLER_ADDRESS: seller.address.join("|"),
    SELLER_TAX_ID: seller.taxId,
    SELLER_EMAIL: seller.email,
  },
});

const get = (url: string, who?: TestAccount) => call(who, "GET", url);

const pay = markOrderPaid;

const numbersOf = async (year: number) =>
  (
    await t.database.db
      .select({ number: invoices.number, sequence: invoices.sequence })
      .from(invoices)
      .where(eq(invoices.year, year))
      .orderBy(invoices.sequence)
  ).map((r) => r.number);

// The issue asks for 1,000 from 50 parallel payments: that takes about 20 s here (every issue's
// commit waits for the one before it: one fsync each), so the test issues 300 and the bench
// (`npm run bench -- invoices`) the full 1,000, checking the same.
const INVOICES = 300;

test(`${INVOICES} invoices from 50 parallel payments are numbered 1 to ${INVOICES}: no gap, no duplicate`, async () => {
  // A pool of its own, wide enough for 50 transactions at once (the app's holds 10).
  const pool = new pg.Pool({ connectionString: t.database.url, max: 50 });
  try {
    const db = drizzle(pool);
    const service = createInvoiceService(db, { seller });
    const ids = await unpaidOrders(db, INVOICES);
    // Every invoice of this test is issued "in 2031": a year no other test numbers in.
    const when = new Date("2031-03-01T12:00:00Z");
    const started = performance.now();
    const issued = await payAllInParallel(db, service, ids, 50, when);
    const seconds = (performance.now() - started) / 1000;
    console.info(`${INVOICES} invoices from 50 parallel payments in ${seconds.toFixed(1)} s`);
    const expected = Array.from({ length: INVOICES }, (_, i) =>
      documentNumber("invoice", 2031, i + 1),
    );
    expect([...issued].sort()).toEqual(expected);
    expect(await numbersOf(2031)).toEqual(expected);
    const [perOrder] = await db
      .select({ orders: sql<number>`count(distinct ${invoices.orderId})::int` })
      .from(invoices)
      .where(eq(invoices.year, 2031));
    expect(perOrder!.orders).toBe(INVOICES);
  } finally {
    await pool.end();
  }
}, 120_000);

test("a payment that rolls back leaves no gap: its number goes to the next invoice", async () => {
  const db = t.database.db;
  const service = createInvoiceService(db, { seller });
  const [a, b, c] = await unpaidOrders(db, 3);
  const when = new Date("2032-06-01T00:00:00Z");
  const first = await db.transaction(async (tx) => {
    await pay(tx, a!);
    return service.issue(tx, a!, when);
  });
  await expect(
    db.transaction(async (tx) => {
      await pay(tx, b!);
      const taken = await service.issue(tx, b!, when);
      expect(taken.number).toBe("INV-2032-000002");
      // Whatever fails after the invoice (the email's queue, the database) undoes the payment.
      throw new Error("the payment failed after its invoice was issued");
    }),
  ).rejects.toThrow("the payment failed");
  const third = await db.transaction(async (tx) => {
    await pay(tx, c!);
    return service.issue(tx, c!, when);
  });
  expect([first.number, third.number]).toEqual(["INV-2032-000001", "INV-2032-000002"]);
  expect(await numbersOf(2032)).toEqual(["INV-2032-000001", "INV-2032-000002"]);
  const [orderB] = await db.select().from(orders).where(eq(orders.id, b!));
  expect(orderB!.status).toBe("unpaid");
});

test("numbers start again at 1 each calendar year (UTC)", async () => {
  const db = t.database.db;
  const service = createInvoiceService(db, { seller });
  const [a, b, c] = await unpaidOrders(db, 3);
  const issue = (id: string, at: string) =>
    db.transaction(async (tx) => {
      await pay(tx, id);
      return (await service.issue(tx, id, new Date(at))).number;
    });
  expect(await issue(a!, "2033-12-31T23:59:59Z")).toBe("INV-2033-000001");
  expect(await issue(b!, "2034-01-01T00:00:00Z")).toBe("INV-2034-000001");
  expect(await issue(c!, "2033-12-31T23:59:59.999Z")).toBe("INV-2033-000002");
});

test("paying with the test card issues the invoice; replays and a second confirm issue no other", async () => {
  const p = await insertProduct(t.database.db, { priceCents: 2500, minimumOrder: 1 });
  const { orderId, confirm } = await orderAndCharge(t.app, customer, p.id, 2);
  const results = await Promise.all([confirm(), confirm(), confirm()]);
  expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
  expect((await confirm()).statusCode).toBe(200);
  const rows = await t.database.db.select().from(invoices).where(eq(invoices.orderId, orderId));
  expect(rows).toHaveLength(1);
  expect(rows[0]!.number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`));
  expect(rows[0]!.totalCents).toBe(5000);
  expect(rows[0]!.dueAt.toISOString()).toBe(rows[0]!.issuedAt.toISOString());
});

test("GET /invoice and /invoice.pdf: the owner and an admin; 404 for others and unpaid orders", async () => {
  const p = await insertProduct(t.database.db, {
    priceCents: 1999,
    minimumOrder: 1,
    partNumber: `BRK-${process.pid}-77`,
    name: "Front brake pads",
  });
  const { orderId, confirm } = await orderAndCharge(t.app, customer, p.id, 3);
  // Unpaid: no invoice yet, said clearly.
  const unpaid = await get(`/api/orders/${orderId}/invoice.pdf`, customer);
  expect(unpaid.statusCode).toBe(404);
  expect(unpaid.json()).toEqual({ error: "not_found", message: invoiceMessages.notYet });
  expect((await confirm()).statusCode).toBe(200);

  expect((await get(`/api/orders/${orderId}/invoice`)).statusCode).toBe(401);
  expect((await get(`/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(401);
  expect((await get(`/api/orders/${orderId}/invoice`, other)).json()).toEqual({
    error: "not_found",
    message: "Order not found",
  });
  expect((await get(`/api/orders/${orderId}/invoice.pdf`, other)).statusCode).toBe(404);
  expect(
    (await get(`/api/orders/00000000-0000-4000-8000-000000000000/invoice`, customer)).statusCode,
  ).toBe(404);
  expect((await get(`/api/orders/not-an-id/invoice.pdf`, customer)).statusCode).toBe(400);

  const summary = await get(`/api/orders/${orderId}/invoice`, customer);
  expect(summary.statusCode).toBe(200);
  const s = summary.json();
  expect(s).toMatchObject({
    orderId,
    number: expect.stringMatching(/^INV-\d{4}-\d{6}$/),
    currency: "USD",
    subtotal: 59.97,
    total: 59.97,
    paymentTerms: "Paid by card: nothing is due",
    pdfUrl: `/api/orders/${orderId}/invoice.pdf`,
  });
  expect((await get(`/api/orders/${orderId}/invoice`, admin)).json()).toEqual(s);

  for (const who of [customer, admin]) {
    const res = await get(`/api/orders/${orderId}/invoice.pdf`, who);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${s.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const { text, pages } = await pdfText(res.rawPayload);
    expect(pages).toHaveLength(1);
    expect(text).toContain(s.number);
    expect(text).toContain(`BRK-${process.pid}-77`);
    expect(text).toContain("Front brake pads");
    expect(text).toContain("$59.97");
    expect(text).toContain(seller.name);
    expect(text).toContain(`Tax id: ${seller.taxId}`);
    expect(text).toContain(customer.email);
    expect(text).toContain((await get(`/api/orders/${orderId}`, customer)).json().number);
    expect(text).toContain("TEST payment");
  }
});

test("the invoice never changes: not when the product, the order or the account change, nor by SQL", async () => {
  const db = t.database.db;
  const buyer = await signUp(t.app, { name: "Ada Fleet" });
  const [me] = await db.select({ id: user.id }).from(user).where(eq(user.email, buyer.email));
  const [company] = await db
    .insert(companies)
    .values({ name: `Fleet Garage ${process.pid}`, taxId: "DE129273398" })
    .returning();
  await db.insert(companyMembers).values({ companyId: company!.id, userId: me!.id, role: "buyer" });
  const { orderId, part: p } = await paidOrderOfNewPart(t, buyer, 1, {
    priceCents: 4200,
    partNumber: `ALT-${process.pid}-1`,
    name: "Alternator 120A",
  });
  const before = await get(`/api/orders/${orderId}/invoice.pdf`, buyer);
  const beforeText = (await pdfText(before.rawPayload)).text;
  expect(beforeText).toContain(`Fleet Garage ${process.pid}`);
  expect(beforeText).toContain("Tax id: DE129273398");
  expect(beforeText).toContain("Ada Fleet");

  // Everything the invoice was made from changes afterwards.
  await db
    .update(products)
    .set({ name: "Renamed part", priceCents: 1, partNumber: "NEW-1" })
    .where(eq(products.id, p.id));
  await db
    .update(orderItems)
    .set({ productName: "Edited line", unitPriceCents: 1 })
    .where(eq(orderItems.orderId, orderId));
  await db
    .update(orders)
    .set({ customerName: "Someone Else", address: "Elsewhere", totalCents: 1 })
    .where(eq(orders.id, orderId));
  await db
    .update(companies)
    .set({ name: "Other Company", taxId: "FR40303265045" })
    .where(eq(companies.id, company!.id));
  await db.update(user).set({ name: "Renamed Buyer" }).where(eq(user.id, me!.id));

  const after = await get(`/api/orders/${orderId}/invoice.pdf`, buyer);
  expect(Buffer.compare(after.rawPayload, before.rawPayload)).toBe(0);
  const afterText = (await pdfText(after.rawPayload)).text;
  expect(afterText).toContain("Alternator 120A");
  expect(afterText).toContain(`ALT-${process.pid}-1`);
  expect(afterText).toContain("$42.00");
  expect(afterText).not.toContain("Renamed part");
  expect(afterText).not.toContain("Other Company");
  expect((await get(`/api/orders/${orderId}/invoice`, buyer)).json().total).toBe(42);

  // Not even SQL changes an issued invoice, and its order cannot be deleted.
  await expect(
    db.update(invoices).set({ totalCents: 1 }).where(eq(invoices.orderId, orderId)),
  ).rejects.toThrow();
  await expect(db.delete(orders).where(eq(orders.id, orderId))).rejects.toThrow();
  const [row] = await db.select().from(invoices).where(eq(invoices.orderId, orderId));
  expect(row!.totalCents).toBe(4200);
});

test("the payment email carries the invoice PDF", async () => {
  const buyer = await signUp(t.app);
  const { orderId } = await paidOrderOfNewPart(t, buyer, 4, {
    priceCents: 1250,
    partNumber: `OIL-${process.pid}-9`,
  });
  const [invoice] = await t.database.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, orderId));
  const mail = await waitForMail(t.app, buyer.email, /Payment received/);
  expect(mail.text).toContain(`Your invoice ${invoice!.number} is attached (PDF).`);
  expect(mail.attachments).toHaveLength(1);
  const [pdf] = mail.attachments;
  expect(pdf).toMatchObject({ filename: `${invoice!.number}.pdf`, contentType: "application/pdf" });
  const { text } = await pdfText(Buffer.from(pdf!.content, "base64"));
  expect(text).toContain(invoice!.number);
  expect(text).toContain(`OIL-${process.pid}-9`);
  expect(text).toContain("$50.00");
});

test("a long order's invoice runs over pages, each numbered; odd characters do not break it", async () => {
  const db = t.database.db;
  const [id] = await unpaidOrders(db, 1);
  await db.insert(orderItems).values(
    Array.from({ length: 59 }, (_, i) => ({
      orderId: id!,
      line: i + 2,
      productName:
        i === 0
          ? "Łożysko koła – 日本 “bearing” with a very long name that does not fit its column"
          : `Part ${i + 2}`,
      partNumber: `P-${i + 2}`,
      unitPriceCents: 100,
      qty: 1,
    })),
  );
  const service = createInvoiceService(db, { seller });
  const issued = await db.transaction(async (tx) => {
    await pay(tx, id!);
    return service.issue(tx, id!, new Date("2035-01-02T00:00:00Z"));
  });
  const [row] = await db.select().from(invoices).where(eq(invoices.id, issued.id));
  const { pages } = await pdfText(await renderStored(row!));
  expect(pages.length).toBeGreaterThan(1);
  expect(pages.at(-1)).toContain(`${issued.number} - page ${pages.length} of ${pages.length}`);
  expect(pages.join(" ")).toContain("P-60");
  // "ż" loses its dot, "Ł" and "日本" have no form in the standard fonts: "?".
  expect(pages[0]).toContain("?ozysko ko?a");
  const [one] = await db.select({ value: count() }).from(invoices).where(eq(invoices.orderId, id!));
  expect(one?.value).toBe(1);
});
