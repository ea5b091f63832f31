import { and, desc, eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { pdfText } from "../../../tests/support/pdf-text";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, joinCompany } from "../../../tests/support/trade";
import { payWithTestCard } from "../../../tests/support/payments";
import { adminAuditLog } from "../audit/tables";
import { orders } from "../orders/tables";
import { REVERSE_CHARGE_NOTE } from "./rules";

// A company's tax status through the API: the admin records an EU VAT number (format checked) or
// an exemption certificate; its buyer's checkout, order, and invoice PDF show 0 % with the note.
// The store sells from Germany here (STORE_COUNTRY=DE).

let euStandard: string;

const address = (country: string, postalCode: string, city: string) => ({
  name: "Marie Curie",
  line1: "1 Rue de la Paix",
  city,
  region: "",
  postalCode,
  country,
  phone: "0155550100",
});
const paris = address("FR", "75002", "Paris");
const berlin = address("DE", "10117", "Berlin");

// The tax rules in the store's currency: an order delivered to France is not priced in the
// Europe market here (MARKET_CHOICE off; markets with VAT: tax/included-orders.test.ts).
const { t, call, admin } = storeForTests({
  admin: "vat-admin@example.com",
  env: { STORE_COUNTRY: "DE", MARKET_CHOICE: "false" },
});
beforeAll(async () => {
  const eu = await call(admin, "POST", "/api/shipping-zones", {
    name: "EU",
    countries: ["DE", "FR"],
    methods: [{ name: "EU Standard", estimate: "3-5 days", kind: "flat", price: 20 }],
  });
  expect(eu.statusCode).toBe(201);
  euStandard = eu.json().methods[0].id;
  for (const rate of [
    { country: "DE", name: "VAT", rate: 19 },
    { country: "FR", name: "TVA", rate: 20 },
  ]) {
    expect((await call(admin, "POST", "/api/tax-rates", rate)).statusCode).toBe(201);
  }
});

/** A company with a buyer, its tax status set by the admin. */
async function companyWith(tax: object) {
  const company = await createCompany(t.app, admin);
  const set = await call(admin, "PUT", `/api/companies/${company.id}/tax`, {
    taxId: null,
    exemptionCertificate: null,
    ...tax,
  });
  expect(set.statusCode).toBe(200);
  const buyer = await joinCompany(t.app, admin, company.id, "buyer");
  return { company, buyer, tax: set.json() };
}

/** The buyer's cart (one 100.00 part), their address, the quote, and the checkout at its total. */
async function checkout(buyer: TestAccount, where: object) {
  const part = await insertProduct(t.database.db, {
    priceCents: 10_000,
    minimumOrder: 1,
    partNumber: `VAT-${Math.random().toString(36).slice(2, 8)}`,
  });
  expect((await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 1 })).statusCode).toBe(200);
  const saved = (await call(buyer, "POST", "/api/user/addresses", where)).json();
  const quote = (
    await call(buyer, "POST", "/api/cart/quote", {
      addressId: saved.id,
      shippingMethodId: euStandard,
    })
  ).json();
  const placed = await call(buyer, "POST", "/api/checkout", {
    addressId: saved.id,
    shippingMethodId: euStandard,
    expectedTotal: quote.total,
  });
  expect(placed.statusCode).toBe(201);
  return { quote, order: placed.json().order, addressId: saved.id, part };
}

async function payAndReadInvoice(buyer: TestAccount, orderId: string) {
  const { intent, paid: confirmed } = await payWithTestCard(t.app, buyer, orderId);
  expect(intent.statusCode).toBe(200);
  expect(confirmed.statusCode).toBe(200);
  const pdf = await call(buyer, "GET", `/api/orders/${orderId}/invoice.pdf`);
  expect(pdf.statusCode).toBe(200);
  // pdf.js splits lines; join them so the long legal note reads as one.
  return (await pdfText(pdf.rawPayload)).text.replace(/\s+/g, " ");
}

test("admins record a tax id: EU VAT numbers are format-checked (422 with the form), others kept as typed", async () => {
  const company = await createCompany(t.app, admin);
  const url = `/api/companies/${company.id}/tax`;
  const bad = await call(admin, "PUT", url, { taxId: "FR1234", exemptionCertificate: null });
  expect(bad.statusCode).toBe(422);
  expect(bad.json().fields).toEqual({
    taxId:
      "Not a valid French VAT number: FR and 2 letters or digits and 9 digits, like FR12345678901",
  });
  const wrongCountry = await call(admin, "PUT", url, {
    taxId: "X",
    taxIdCountry: "ZZ",
    exemptionCertificate: null,
  });
  expect(wrongCountry.statusCode).toBe(400);
  expect(wrongCountry.json().fields.taxIdCountry).toBe(
    "Use a two-letter country code, like DE or US",
  );
  const good = await call(admin, "PUT", url, {
    taxId: "fr 12 345678901",
    exemptionCertificate: null,
  });
  expect(good.json()).toMatchObject({
    taxId: "FR12345678901",
    taxIdCountry: "FR",
    reverseChargeEligible: true,
    exemptionCertificate: null,
  });
  expect(good.json().taxIdValidatedAt).not.toBeNull();
  const ein = await call(admin, "PUT", url, {
    taxId: "12-3456789",
    taxIdCountry: "US",
    exemptionCertificate: null,
  });
  expect(ein.json()).toMatchObject({
    taxId: "12-3456789",
    taxIdCountry: "US",
    taxIdValidatedAt: null,
    reverseChargeEligible: false,
  });
  const tooLong = await call(admin, "PUT", url, {
    taxId: null,
    exemptionCertificate: "X".repeat(61),
  });
  expect(tooLong.statusCode).toBe(400);
  expect(tooLong.json().fields.exemptionCertificate).toBe("Must be 60 characters or shorter");
  expect(
    (await call(admin, "GET", `/api/companies/00000000-0000-4000-8000-000000000000/tax`))
      .statusCode,
  ).toBe(404);
  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(and(eq(adminAuditLog.action, "company.tax"), eq(adminAuditLog.targetId, company.id)))
    .orderBy(desc(adminAuditLog.at));
  expect(audit.map((a) => a.summary)).toEqual([
    expect.stringContaining("tax id FR12345678901 → 12-3456789 (US)"),
    expect.stringContaining("tax id none → FR12345678901 (FR, EU VAT format checked)"),
  ]);
});

test("an exemption certificate is recorded with who and when, and removed", async () => {
  const company = await createCompany(t.app, admin);
  const url = `/api/companies/${company.id}/tax`;
  const set = await call(admin, "PUT", url, { taxId: null, exemptionCertificate: "EX-77" });
  expect(set.json()).toMatchObject({
    exemptionCertificate: "EX-77",
    exemptionRecordedBy: "vat-admin@example.com",
  });
  expect(Date.now() - Date.parse(set.json().exemptionRecordedAt)).toBeLessThan(60_000);
  const cleared = await call(admin, "PUT", url, { taxId: null, exemptionCertificate: "" });
  expect(cleared.json()).toMatchObject({
    exemptionCertificate: null,
    exemptionRecordedAt: null,
    exemptionRecordedBy: null,
  });
});

test("a French company with a checked VAT id, delivered to France: reverse charge on lines and shipping, on the order and its invoice", async () => {
  const { buyer } = await companyWith({ taxId: "FR12345678901" });
  const { quote, order } = await checkout(buyer, paris);
  expect(quote).toMatchObject({
    subtotal: 100,
    shipping: 20,
    tax: 0,
    taxRate: 0,
    taxName: "VAT reverse charge",
    taxNote: REVERSE_CHARGE_NOTE,
    total: 120,
  });
  expect(order).toMatchObject({
    subtotal: 100,
    shipping: 20,
    tax: 0,
    taxName: "VAT reverse charge",
    taxRate: 0,
    taxNote: REVERSE_CHARGE_NOTE,
    buyerTaxId: "FR12345678901",
    total: 120,
  });
  expect(order.items[0].tax).toBe(0);
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  expect(row).toMatchObject({
    taxCents: 0,
    shippingTaxCents: 0,
    taxNote: REVERSE_CHARGE_NOTE,
    buyerTaxId: "FR12345678901",
  });
  const text = await payAndReadInvoice(buyer, order._id);
  expect(text).toContain("Tax id: FR12345678901");
  expect(text).toContain("VAT reverse charge 0 % of $120.00");
  expect(text).toContain(REVERSE_CHARGE_NOTE);
  // The order and payment emails carry the legal note too.
  const ref = order.number;
  for (const subject of [new RegExp(`order ${ref} is placed`), new RegExp(`order ${ref}$`)]) {
    expect((await waitForMail(t.app, buyer.email, subject)).text).toContain(REVERSE_CHARGE_NOTE);
  }
});

test("the same company delivered to the seller's country (Germany) pays German VAT", async () => {
  const { buyer } = await companyWith({ taxId: "FR12345678901" });
  const { order } = await checkout(buyer, berlin);
  // 19 % of 100.00 and of the 20.00 shipping.
  expect(order).toMatchObject({
    tax: 22.8,
    taxName: "VAT",
    taxRate: 19,
    taxNote: null,
    total: 142.8,
  });
});

test("a German company (the seller's country) pays French VAT delivered to France", async () => {
  const { buyer } = await companyWith({ taxId: "DE123456789" });
  const { order } = await checkout(buyer, paris);
  expect(order).toMatchObject({ tax: 24, taxName: "TVA", taxNote: null, buyerTaxId: null });
});

test("a tax id outside the EU pays VAT; a changed id stops reverse-charging until recorded again", async () => {
  const us = await companyWith({ taxId: "12-3456789", taxIdCountry: "US" });
  expect((await checkout(us.buyer, paris)).order).toMatchObject({ tax: 24, taxNote: null });
  const fr = await companyWith({ taxId: "FR12345678901" });
  // Changed through the company's own form: the new id was never checked.
  const patched = await call(admin, "PATCH", `/api/companies/${fr.company.id}`, {
    taxId: "FR99999999999",
  });
  expect(patched.statusCode).toBe(200);
  const tax = (await call(admin, "GET", `/api/companies/${fr.company.id}/tax`)).json();
  expect(tax).toMatchObject({ taxId: "FR99999999999", reverseChargeEligible: false });
  expect((await checkout(fr.buyer, paris)).order).toMatchObject({ tax: 24, taxNote: null });
});

test("an exempt company pays 0 % with the certificate named, on the order and its invoice", async () => {
  const { buyer } = await companyWith({
    taxId: "DE123456789",
    exemptionCertificate: "EX-2026-0042",
  });
  const { order } = await checkout(buyer, berlin);
  const note = "Tax exempt: exemption certificate EX-2026-0042 on file";
  expect(order).toMatchObject({
    tax: 0,
    taxName: "Tax exempt",
    taxNote: note,
    buyerTaxId: "DE123456789",
    total: 120,
  });
  const text = await payAndReadInvoice(buyer, order._id);
  expect(text).toContain(note);
  expect(text).toContain("Tax id: DE123456789");
});

test("a total confirmed before the VAT id was recorded is a 409 with the new figures", async () => {
  const { company, buyer } = await companyWith({});
  const part = await insertProduct(t.database.db, { priceCents: 10_000, minimumOrder: 1 });
  await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 1 });
  const saved = (await call(buyer, "POST", "/api/user/addresses", paris)).json();
  const shown = (
    await call(buyer, "POST", "/api/cart/quote", {
      addressId: saved.id,
      shippingMethodId: euStandard,
    })
  ).json();
  expect(shown).toMatchObject({ tax: 24, total: 144, taxNote: null });
  await call(admin, "PUT", `/api/companies/${company.id}/tax`, {
    taxId: "FR12345678901",
    exemptionCertificate: null,
  });
  const res = await call(buyer, "POST", "/api/checkout", {
    addressId: saved.id,
    shippingMethodId: euStandard,
    expectedTotal: shown.total,
  });
  expect(res.statusCode).toBe(409);
  expect(res.json().fields).toEqual({ subtotal: "100", shipping: "20", tax: "0", total: "120" });
});

test("a visitor's estimate is unaffected: the country's VAT", async () => {
  const part = await insertProduct(t.database.db, { priceCents: 10_000, minimumOrder: 1 });
  const quote = (
    await call(undefined, "POST", "/api/cart/quote", {
      items: [{ productId: part.id, qty: 1 }],
      estimate: { country: "FR", postalCode: "75002" },
    })
  ).json();
  expect(quote).toMatchObject({ tax: 24, taxName: "TVA", taxNote: null, total: 144 });
});

test("a customer without a company cannot read or set a company's tax status", async () => {
  const company = await createCompany(t.app, admin);
  const customer = await signUp(t.app);
  expect((await call(customer, "GET", `/api/companies/${company.id}/tax`)).statusCode).toBe(403);
  expect(
    (
      await call(customer, "PUT", `/api/companies/${company.id}/tax`, {
        taxId: "FR12345678901",
        exemptionCertificate: null,
      })
    ).statusCode,
  ).toBe(403);
});
