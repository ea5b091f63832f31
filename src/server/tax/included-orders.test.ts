import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpVerified, type TestAccount } from "../../../tests/support/accounts";
import { testCheckout } from "../../../tests/support/checkout-service";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { creditNotesOf, TEST_SELLER } from "../../../tests/support/invoices";
import { waitForMail } from "../../../tests/support/mailbox";
import { addGermanVat } from "../../../tests/support/markets";
import { pdfText } from "../../../tests/support/pdf-text";
import { payWithTestCard, testCardRefundsOf } from "../../../tests/support/payments";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, joinCompany } from "../../../tests/support/trade";
import { companyAddressInputSchema } from "../../contract/addresses";
import type { Market } from "../../contract/markets";
import { createCartService } from "../cart/service";
import { createInvoiceService } from "../invoices/service";
import { refunds } from "../returns/tables";
import { openInvoicesCents } from "../terms/account";
import { termsMessages } from "../../contract/terms";
import { withConsumerTaxRate } from "./service";
import { productPrice } from "../pricing/routes";

/**
 * Consumer prices with VAT included (docs/tax.md "Prices with VAT included") through the services
 * a door asks (no route chooses a market yet): in Europe a consumer's order to Berlin is priced
 * gross at Germany's 19 %, paid by test card in EUR, emailed and invoiced with "Includes VAT
 * (19 %) €7.87" instead of a tax line added, and refunded in EUR by its gross amounts; a trade
 * buyer in the same market pays net prices with the tax added.
 */

let europe: Market;
const berlin = () =>
  companyAddressInputSchema.parse({
    ...TEST_SHIP_TO,
    line1: "Invalidenstraße 1",
    city: "Berlin",
    region: "",
    postalCode: "10115",
    country: "DE",
  });

const { t, call, admin } = storeForTests({
  admin: "vat-included-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  europe = ((await call(admin, "GET", "/api/markets")).json() as Market[]).find(
    (m) => m.code === "EU",
  )!;
  expect(europe).toMatchObject({ currency: "EUR", rate: 0.92, pricesIncludeTax: true });
  const zone = await call(admin, "POST", "/api/shipping-zones", {
    name: "Germany",
    countries: ["DE"],
    methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 7.5 }],
  });
  expect(zone.statusCode).toBe(201);
  const rate = await addGermanVat(t.app, admin);
  expect(rate.statusCode).toBe(201);
});

const checkout = () => testCheckout(t.database.db, { uncapped: true });

/** Three $12.50 parts to Berlin, placed by the one-product order in `market` as `who`. */
async function orderThree(
  who: TestAccount & { id: string },
  market: Market,
  service: () => ReturnType<typeof testCheckout> = checkout,
) {
  const part = await insertProduct(t.database.db, { priceCents: 1250, minimumOrder: 1 });
  const customer = { id: who.id, email: who.email, name: who.name, emailVerified: true };
  const input = { productId: part.id, orderQty: 3, shipTo: berlin() };
  const total = await service().orderTotal(customer, input, market);
  const placed = await service().placeOne(
    customer,
    { ...input, phonrNo: "5550100", Address: "Invalidenstraße 1", expectedTotal: total.total },
    undefined,
    market,
  );
  return { total, placed, part };
}

test("the rate a consumer's prices include before checkout: the hint's country, else the market's first", async () => {
  expect(await withConsumerTaxRate(t.database.db, europe, "de")).toMatchObject({
    taxRateMillipercent: 19_000,
  });
  // Austria (AT) is Europe's first country; this store has no rate for it.
  expect(await withConsumerTaxRate(t.database.db, europe, "US")).toMatchObject({
    taxRateMillipercent: 0,
  });
  const us = ((await call(admin, "GET", "/api/markets")).json() as Market[]).find(
    (m) => m.isDefault,
  )!;
  expect(await withConsumerTaxRate(t.database.db, us, "US")).toEqual(us);
});

test("a consumer in Europe: gross prices, paid, emailed, invoiced and refunded in EUR with the VAT included", async () => {
  const driver = await signUpVerified(t);
  const market = await withConsumerTaxRate(t.database.db, europe, "DE");
  const { total, placed, part } = await orderThree(driver, market);
  // The part's price answer says the same gross price, its list price too (a list price shown
  // net beside a gross price would look like a price above the list).
  expect(await productPrice(t.database.db, driver.id, "USD", part.id, market)).toMatchObject({
    currency: "EUR",
    listPrice: 13.69,
    yourPrice: 13.69,
  });
  // $12.50 is €11.50 net, €13.69 with 19 % VAT; three are €41.07. Shipping's $7.50 is €6.90,
  // €8.21 gross. The total is what the prices shown add up to: €49.28, which includes
  // €6.56 + €1.31 = €7.87 of VAT.
  expect(total).toMatchObject({
    subtotal: 41.07,
    shipping: 8.21,
    tax: 7.87,
    total: 49.28,
    pricesIncludeTax: true,
    taxRate: 19,
  });
  expect(placed).toMatchObject({
    currency: "EUR",
    pricesIncludeTax: true,
    productPrice: 13.69,
    subtotal: 41.07,
    shipping: 8.21,
    tax: 7.87,
    taxName: "VAT",
    taxRate: 19,
    total: 49.28,
  });
  expect(placed.items[0]).toMatchObject({ unitPrice: 13.69, lineTotal: 41.07, tax: 6.56 });
  // A visitor's quote of the same parts to Berlin shows what the order charges.
  const quote = await createCartService(t.database.db, { currency: "USD" }).quote(
    { items: [{ productId: part.id, qty: 3 }], estimate: { country: "DE", postalCode: "10115" } },
    undefined,
    market,
  );
  expect(quote).toMatchObject({
    currency: "EUR",
    pricesIncludeTax: true,
    subtotal: 41.07,
    shipping: 8.21,
    tax: 7.87,
    taxRate: 19,
    total: 49.28,
  });
  expect(quote.lines[0]).toMatchObject({ unitPrice: 13.69, lineTotal: 41.07 });

  const { intent, paid } = await payWithTestCard(t.app, driver, placed._id);
  expect(intent.statusCode, intent.body).toBe(200);
  expect(paid.statusCode, paid.body).toBe(200);
  const mail = await waitForMail(t.app, driver.email, /Payment received/);
  expect(mail.text).toContain("We received your payment of €49.28");
  expect(mail.text).toContain(`3 × ${part.name}  €41.07`);
  expect(mail.text).toContain("Total  €49.28");
  expect(mail.text).toContain("Includes VAT (19 %)  €7.87");
  // No tax row added before the total.
  expect(mail.text).not.toMatch(/^VAT \(19 %\)/m);

  const pdf = await call(driver, "GET", `/api/orders/${placed._id}/invoice.pdf`);
  expect(pdf.statusCode).toBe(200);
  const text = (await pdfText(pdf.rawPayload)).text.replace(/\s+/g, " ");
  expect(text).toContain("Total (EUR) €49.28");
  expect(text).toContain("Includes VAT (19 %) €7.87");
  expect(text).not.toMatch(/VAT 19 % of/);

  const cancelled = await call(admin, "PATCH", `/api/orders/${placed._id}/status`, {
    status: "cancelled",
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  const [refund] = await t.database.db
    .select()
    .from(refunds)
    .where(eq(refunds.orderId, placed._id));
  // Refunded by its gross amounts: the lines' and the shipping's net, and the VAT they contained.
  expect(refund).toMatchObject({
    currency: "EUR",
    amountCents: 4928,
    taxCents: 787,
    shippingCents: 821 - 131,
    netCents: 4107 - 656,
    status: "succeeded",
  });
  expect((await testCardRefundsOf(t.database.db, refund!.id)).map((r) => r.amountCents)).toEqual([
    4928,
  ]);
  const [note] = await creditNotesOf(t.database.db, placed._id);
  expect(note).toMatchObject({ currency: "EUR", totalCents: -4928, taxCents: -787 });
  expect(note!.snapshot).toMatchObject({ pricesIncludeTax: true, shippingCents: -821 });
  expect(note!.snapshot.lines[0]).toMatchObject({ netCents: -4107, taxCents: -656 });
  const notes = await call(driver, "GET", `/api/orders/${placed._id}/credit-notes`);
  expect(notes.json().map((n: { total: number }) => n.total)).toEqual([-49.28]);
  const notePdf = await call(driver, "GET", `/api/credit-notes/${note!.id}/pdf`);
  expect(notePdf.statusCode).toBe(200);
  const noteText = (await pdfText(notePdf.rawPayload)).text.replace(/\s+/g, " ");
  expect(noteText).toContain("Total (EUR) -€49.28");
  expect(noteText).toContain("Includes VAT (19 %) -€7.87");
});

test("a trade buyer in the same market pays net prices with the tax added; on account, counted in the store's currency", async () => {
  const company = await createCompany(t.app, admin);
  const buyer = await joinCompany(t.app, admin, company.id, "buyer");
  // Net 30 with a credit limit of $100.00 (limits are set in the store's currency).
  const terms = await call(admin, "PATCH", `/api/companies/${company.id}`, {
    paymentTerms: "net30",
    creditLimit: 100,
  });
  expect(terms.statusCode, terms.body).toBe(200);
  const market = await withConsumerTaxRate(t.database.db, europe, "DE");
  const onAccount = () =>
    testCheckout(t.database.db, {
      uncapped: true,
      invoices: createInvoiceService(t.database.db, { seller: TEST_SELLER }),
    });
  const { placed } = await orderThree(buyer, market, onAccount);
  // €34.50 + €6.90 shipping, with 19 % on each added: €6.56 + €1.31.
  expect(placed).toMatchObject({
    currency: "EUR",
    pricesIncludeTax: false,
    productPrice: 11.5,
    subtotal: 34.5,
    shipping: 6.9,
    tax: 7.87,
    total: 49.27,
    status: "paid",
  });
  // Where orders of several currencies are added, each counts in the store's currency at its
  // rate: the dashboard's revenue of the day and the company's open invoices, €49.27 at 0.92
  // being $53.55.
  const overview = (await call(admin, "GET", "/api/orders/overview")).json();
  expect(overview.currency).toBe("USD");
  expect(overview.days.at(-1).revenue).toBe(53.55);
  expect(await openInvoicesCents(t.database.db, company.id)).toBe(5355);
  // Another €49.27 would take it over: the refusal names the limit and what is open in EUR.
  await expect(orderThree(buyer, market, onAccount)).rejects.toThrow(
    termsMessages.overCreditLimit("€92.00", "€49.27"),
  );
});

test("the default market changes nothing: net prices, tax added, no VAT words", async () => {
  const driver = await signUpVerified(t);
  const us = ((await call(admin, "GET", "/api/markets")).json() as Market[]).find(
    (m) => m.isDefault,
  )!;
  const { placed } = await orderThree(driver, await withConsumerTaxRate(t.database.db, us, "DE"));
  expect(placed).toMatchObject({ currency: "USD", pricesIncludeTax: false, productPrice: 12.5 });
});
