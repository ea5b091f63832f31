import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signUp, signUpAdmin, type TestAccount } from "../../tests/support/accounts";
import { insertProduct, insertReview } from "../../tests/support/factories";
import { messagesFor, waitForMail } from "../../tests/support/mailbox";
import { markOrderPaid } from "../../tests/support/invoices";
import { issueInvoice } from "./invoices/issue";
import { shipTheRest } from "./shipments/service";
import { multipart, tinyGif, tinyPng } from "../../tests/support/multipart";
import { createTestApp, type TestApp } from "../../tests/support/test-app";
import { AUSTIN_DOCK, shipsToTestAddress, TEST_SHIP_TO } from "../../tests/support/destination";
import { createCompany, createPriceList, joinCompany } from "../../tests/support/trade";
import { claimBody } from "../../tests/support/warranty";
import { createHash, randomUUID } from "node:crypto";
import { seedDemoFitment } from "./demo/seed";
import { cartItems } from "./cart/tables";
import {
  customerGroups,
  discountCodes,
  markets,
  priceRules,
  RETAIL_GROUP_ID,
} from "./pricing/tables";
import { companyAddresses, companyInvitations, companyMembers } from "./companies/tables";
import { invoicePayments } from "./terms/tables";
import { invoices } from "./invoices/tables";
import { orders } from "./orders/tables";
import { payments, testCardIntents } from "./payments/tables";
import { refunds, returnRequests } from "./returns/tables";
import { productImportJobs } from "./product-csv/tables";
import { catalogImports } from "./imports/tables";
import { rateLimit, session } from "./auth/tables";
import { user } from "./users/tables";
import {
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "./vehicles/tables";
import { partSlug } from "../contract/paths";
import { attributeDefinitions } from "./catalog/attributes/tables";
import { apiKeys } from "./api-keys/tables";
import { createApiKeyService } from "./api-keys/service";
import { createWebhookService } from "./webhooks/service";
import { apiScopes, type ApiKeyIssued, type ApiScope } from "../contract/api-keys";

/** A request that uploads one file (multipart/form-data). */
const upload = (url: string, file: Parameters<typeof multipart>[0]): Call => ({
  url,
  ...multipart(file),
});
/** A CSV file in the field `file`, as the CSV uploads take it. */
const csvFile = (data: string | Buffer, filename: string) => ({
  data: typeof data === "string" ? Buffer.from(data) : data,
  filename,
  type: "text/csv",
  field: "file",
});
/** A one-product CSV with a fresh part number each call (an admin's import writes it). */
let matrixCsvCount = 0;
const matrixCsv = () =>
  Buffer.from(
    "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references\n" +
      `MX-${process.pid}-${++matrixCsvCount},Matrix part,For the matrix,Other,1,1,1,0,/images/products/oil-filter.svg,\n`,
  );

/** A fresh previewed import of no applications (its start queues a job that finds no file). */
async function matrixImport(): Promise<string> {
  const [row] = await t.database.db
    .insert(catalogImports)
    .values({
      kind: "aces",
      brand: "MTRX",
      fileName: "matrix.xml",
      status: "previewed",
      createdById: "matrix",
      createdBy: "matrix-admin@example.com",
    })
    .returning({ id: catalogImports.id });
  return row!.id;
}

/**
 * Every API route, with the status each kind of caller gets. The customer owns the resources in
 * play (their order, their payment) and belongs to no company; "other" is another signed-in
 * customer of no company; the admin is an admin; "owner", "buyer" and "viewer" are the three
 * members of the matrix's company, whose routes (its members, invitations, ship-to addresses,
 * approvals, invoices on account, the buyer's quotes) are theirs. The test fails when the server
 * has a route this table lacks.
 */
type Role = "anonymous" | "customer" | "other" | "admin" | "owner" | "buyer" | "viewer";
type Member = "owner" | "buyer" | "viewer";
type Expect = Record<Role, number>;
interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}
interface Row {
  route: string;
  call: () => Promise<Call>;
  expect: Expect;
}

const roles: Role[] = ["anonymous", "customer", "other", "admin", "owner", "buyer", "viewer"];
/**
 * The company's members are customers too: on a route about no company they get what "other"
 * gets (a customer whose resources are not in play). Each helper below goes through it.
 */
const likeOther = (e: Omit<Expect, Member>): Expect => ({
  ...e,
  owner: e.other,
  buyer: e.other,
  viewer: e.other,
});
const everyone = (status: number) =>
  likeOther({ anonymous: status, customer: status, other: status, admin: status });
const signedIn = (status: number) => ({ ...everyone(status), anonymous: 401 });
const adminOnly = (status: number) =>
  likeOther({ anonymous: 401, customer: 403, other: 403, admin: status });
/** Every customer, for their own (their cart); admins do not order. */
const customers = (status: number) =>
  likeOther({ anonymous: 401, customer: status, other: status, admin: 403 });
/** Only the owner (the customer); anyone else signed in is told it does not exist. */
const ownerOnly = (status: number) =>
  likeOther({ anonymous: 401, customer: status, other: 404, admin: 404 });
/** What a company's viewer is told when ordering (docs/companies.md). */
const VIEWERS_DO_NOT_ORDER = 403;

let t: TestApp;
const routes = new Set<string>();
const accounts = {} as Record<Exclude<Role, "anonymous">, TestAccount>;
/** The matrix's company (owner, buyer and viewer: `accounts`), on a price list of one entry. */
const trade = {} as { companyId: string; buyerId: string; priceListId: string };

beforeAll(async () => {
  t = await createTestApp(
    {
      ADMIN_EMAILS: "matrix-admin@example.com",
      METRICS_TOKEN: "matrix-metrics-token-0123456789",
    },
    {
      seed: shipsToTestAddress,
      onRoute: (r) => {
        for (const m of [r.method].flat()) {
          if (m !== "HEAD" && (r.url.startsWith("/api") || r.url === "/metrics"))
            routes.add(`${m} ${r.url}`);
        }
      },
    },
  );
  accounts.customer = await signUp(t.app, { email: "matrix-customer@example.com" });
  accounts.other = await signUp(t.app, { email: "matrix-other@example.com" });
  accounts.admin = await signUpAdmin(t, { email: "matrix-admin@example.com" });
  const product = await freshProduct();
  const list = await createPriceList(t.app, accounts.admin, [
    { productId: product.id, unitPrice: 5 },
  ]);
  const company = await createCompany(t.app, accounts.admin, { priceListId: list.id });
  accounts.owner = await joinCompany(t.app, accounts.admin, company.id, "owner");
  const buyer = await joinCompany(t.app, accounts.owner, company.id, "buyer");
  accounts.buyer = buyer;
  accounts.viewer = await joinCompany(t.app, accounts.owner, company.id, "viewer");
  Object.assign(trade, { companyId: company.id, buyerId: buyer.id, priceListId: list.id });
});
afterAll(() => t.close());

const as = (who: TestAccount) => ({ cookie: who.cookie });
/** `who` POSTs `payload` to `url`: set-up, not a call under test. */
const post = (who: TestAccount, url: string, payload?: object) =>
  t.app.inject({ method: "POST", url, headers: as(who), payload });

/** A message in the demo mailbox (the sign-ups above each sent a verification email). */
async function firstMessageId(): Promise<string> {
  const [first] = await messagesFor(t.app, accounts.customer.email);
  if (first) return first.id;
  return (await waitForMail(t.app, accounts.customer.email, /confirm/i)).id;
}

/**
 * The id of a new session of the customer's (a second browser), written straight in the
 * database: a sign-in checks a password hash, seven times a row.
 */
async function customerSecondSession(): Promise<string> {
  const id = randomUUID();
  await t.database.db.insert(session).values({
    id,
    token: randomUUID(),
    expiresAt: new Date(Date.now() + 3600_000),
    userId: await userIdOf(accounts.customer),
  });
  return id;
}

async function freshProduct() {
  return insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 1000 });
}
const freshProductId = async () => (await freshProduct()).id;
/** A PATCH of a fresh product with `payload`. */
const productPatch = (payload: object) => async (): Promise<Call> => ({
  url: `/api/products/${(await freshProduct()).id}`,
  payload,
});
/** Every signed-in caller but the admin: each has a cart. */
const customerAccounts = () =>
  (["customer", "other", "owner", "buyer", "viewer"] as const).map((r) => accounts[r]);
/** Fills these customers' carts with one fresh part (replacing what they held). */
async function fillCarts(who: TestAccount[]) {
  const p = await freshProduct();
  const ids = await Promise.all(who.map(userIdOf));
  await t.database.db.delete(cartItems).where(inArray(cartItems.userId, ids));
  await t.database.db.insert(cartItems).values(
    ids.map((userId) => ({
      userId,
      productId: p.id,
      productName: p.name,
      qty: 1,
      seenPriceCents: p.priceCents,
    })),
  );
  return p;
}
/**
 * A new quote of the company's buyer (so the company's), requested; `sent`: priced and sent by the
 * admin. A customer's own quote without a company is quotes/quotes.test.ts's.
 */
async function buyerQuote(sent = false): Promise<string> {
  // Set-up, not a caller under test: the buyer asks for a quote per row and caller, past the
  // hourly budget of quote requests (quotes/limits.test.ts tests it), so it is forgotten first.
  await t.database.db.delete(rateLimit).where(like(rateLimit.key, "quotes:request:%"));
  const p = await fillCarts([accounts.buyer]);
  const res = await post(accounts.buyer, "/api/quotes", { note: "Matrix quote" });
  const id = res.json().id as string;
  if (sent) {
    await post(accounts.admin, `/api/quotes/${id}/send`, {
      lines: [{ productId: p.id, unitPrice: 1 }],
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
  }
  return id;
}
/** The spec's one-product order, to the test address (the matrix's store ships there). */
const matrixOrder = {
  orderQty: 1,
  phonrNo: "5550100",
  Address: "1 Matrix Way",
  shipTo: TEST_SHIP_TO,
};
const matrixSeller = { name: "Matrix Seller", address: ["1 Road"], taxId: null, email: null };
/** A new unpaid order of the customer's (or of another account's: the company's buyer). */
async function customerOrder(who = accounts.customer): Promise<string> {
  const p = await freshProduct();
  const res = await post(who, "/api/orders", { ...matrixOrder, productId: p.id });
  return res.json().order._id;
}
/**
 * A new order of the customer's, paid (written as the paying transaction leaves it) with its
 * invoice: not through the test card, whose confirmations are rate-limited per account (the
 * confirm row spends them).
 */
async function customerPaidOrder(): Promise<string> {
  const orderId = await customerOrder();
  await t.database.db.transaction(async (tx) => {
    await markOrderPaid(tx, orderId);
    await issueInvoice(tx, orderId, matrixSeller, new Date());
  });
  return orderId;
}
/**
 * A new order of the customer's, paid on account and (unless asked otherwise) shipped, written
 * straight in the database (the test-card confirmation is rate-limited per account; paying on
 * account refunds with a credit note only, no gateway).
 */
async function customerShippedOrder(
  status: "paid" | "shipped" = "shipped",
  who = accounts.customer,
): Promise<string> {
  const orderId = await customerOrder(who);
  await t.database.db
    .update(orders)
    .set({
      status,
      transactionId: `pi_matrix_${orderId}`,
      paidWith: "invoice",
      paidAt: new Date(),
      shippedAt: status === "shipped" ? new Date() : null,
    })
    .where(eq(orders.id, orderId));
  // Shipped: its lines are in a shipment (returns count from it; docs/shipments.md).
  if (status === "shipped") await shipTheRest(t.database.db, orderId, null, new Date());
  return orderId;
}
/** A new return of the customer's (requested; approved when asked). */
async function customerReturn(approve = false): Promise<{ id: string; orderId: string }> {
  const orderId = await customerShippedOrder();
  const res = await post(accounts.customer, `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "damaged",
  });
  const id = res.json().id as string;
  if (approve) {
    await post(accounts.admin, `/api/returns/${id}/decision`, { decision: "approve" });
  }
  return { id, orderId };
}
/** A shipped order of the company's buyer: its owner and buyers act on it, its viewer does not. */
const buyerShippedOrder = () => customerShippedOrder("shipped", accounts.buyer);
/** A new warranty claim the company's buyer filed on their shipped order. */
async function buyerClaim(): Promise<string> {
  const res = await post(
    accounts.buyer,
    "/api/warranty-claims",
    claimBody(await buyerShippedOrder()),
  );
  return res.json().id as string;
}
/** The address of a photo of a new claim of the company's buyer (the field is a return's). */
async function buyerClaimPhoto(): Promise<string> {
  const body = returnPhotoBody();
  const res = await t.app.inject({
    method: "POST",
    url: `/api/warranty-claims/${await buyerClaim()}/photos`,
    headers: { ...body.headers, ...as(accounts.buyer) },
    payload: body.payload,
  });
  return res.json()[0].url as string;
}
/** The company's owner and buyers, and admins; everyone else is told it does not exist. */
const companyActors = (status: number): Expect => ({
  anonymous: 401,
  customer: 404,
  other: 404,
  admin: status,
  owner: status,
  buyer: status,
  viewer: 404,
});
/** A photo of a new return of the customer's (docs/returns.md, "Photos"). */
const returnPhotoBody = () =>
  multipart({ data: tinyPng, filename: "part.png", type: "image/png", field: "photos" });
async function customerReturnPhoto(): Promise<string> {
  const { id } = await customerReturn();
  const body = returnPhotoBody();
  const res = await t.app.inject({
    method: "POST",
    url: `/api/returns/${id}/photos`,
    headers: { ...body.headers, ...as(accounts.customer) },
    payload: body.payload,
  });
  return res.json()[0].url as string;
}
/** A received return whose refund failed (written as the gateway failure leaves it). */
async function failedRefundReturn(): Promise<string> {
  const { id, orderId } = await customerReturn(true);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  await t.database.db.insert(refunds).values({
    orderId,
    kind: "return",
    returnId: id,
    netCents: 1,
    taxCents: 0,
    amountCents: 1,
    currency: order!.currency,
    gateway: order!.paidWith!,
    status: "failed",
    error: "Gateway timed out",
  });
  await t.database.db
    .update(returnRequests)
    .set({ status: "refund_failed" })
    .where(eq(returnRequests.id, id));
  return id;
}
/** The refund of such a return (it goes through on account when retried: a credit note). */
async function failedRefund(): Promise<string> {
  const returnId = await failedRefundReturn();
  const [row] = await t.database.db.select().from(refunds).where(eq(refunds.returnId, returnId));
  return row!.id;
}
/**
 * A payment of the customer's kept as refund due (docs/returns.md), written as the store
 * leaves one: the test-card gateway holds the paid intent, the store a `refund_due` row.
 */
async function customerRefundDuePayment(): Promise<string> {
  const orderId = await customerOrder();
  const intentId = `pi_test_matrix_${randomUUID().replaceAll("-", "")}`;
  await t.database.db.insert(testCardIntents).values({
    id: intentId,
    clientSecret: `${intentId}_secret_matrix`,
    amountCents: 500,
    currency: "usd",
    orderId,
    status: "succeeded",
  });
  const [row] = await t.database.db
    .insert(payments)
    .values({
      orderId,
      gateway: "test-card",
      gatewayIntentId: intentId,
      amountCents: 500,
      currency: "usd",
      status: "refund_due",
      refundReason: "a second payment for a paid order",
    })
    .returning({ id: payments.id });
  return row!.id;
}
/** A credit note of the customer's: a paid order the admin cancelled (refunded). */
async function customerCreditNote(): Promise<string> {
  const orderId = await customerShippedOrder("paid");
  await t.app.inject({
    method: "PATCH",
    url: `/api/orders/${orderId}/status`,
    headers: as(accounts.admin),
    payload: { status: "cancelled" },
  });
  const [note] = await t.database.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "credit_note")));
  if (!note) throw new Error("no credit note");
  return note.id;
}
/** A new saved list of the customer's, holding one fresh part. */
let matrixListCount = 0;
async function customerList(): Promise<{ id: string; productId: string }> {
  const p = await freshProduct();
  const res = await post(accounts.customer, "/api/lists", {
    name: `Matrix list ${++matrixListCount}`,
    items: [{ productId: p.id, qty: 1 }],
  });
  return { id: res.json().id, productId: p.id };
}
/** The customer's own, as the garage: others are told 404, admins do not order (403). */
const listOwner = (status: number) =>
  likeOther({ anonymous: 401, customer: status, other: 404, admin: 403 });

async function customerIntentSecret(): Promise<string> {
  const orderId = await customerOrder();
  const res = await post(accounts.customer, "/api/create-payment-intent", { orderId });
  return res.json().clientSecret;
}
async function userIdOf(who: TestAccount): Promise<string> {
  const [row] = await t.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, who.email));
  return row!.id;
}
/** An account nobody in the table is, written straight in the database (as `customerSecondSession`). */
async function bystanderId(): Promise<{ id: string; email: string }> {
  const id = randomUUID();
  const email = `matrix-bystander-${id}@example.com`;
  await t.database.db.insert(user).values({ id, name: "Matrix bystander", email });
  return { id, email };
}
const productBody = () => ({
  name: `Matrix part ${Math.random().toString(36).slice(2)}`,
  partNumber: `MX-${Math.random().toString(36).slice(2)}`,
  category: "Other",
  price: 10,
  minimumOrder: 1,
  availableQuantity: 10,
  warranty: 12,
  shortDescription: "A part made for the matrix",
  img: "/images/products/oil-filter.svg",
});
/** The demo 2016 Volkswagen Golf as query fields (the demo vehicles are added on first use). */
let golf: Promise<{ year: number; make: number; model: number }> | undefined;
function demoGolf() {
  golf ??= (async () => {
    await seedDemoFitment(t.database.db);
    const makes: { id: number; name: string }[] = (
      await t.app.inject({ url: "/api/vehicles/makes?year=2016" })
    ).json();
    const make = makes.find((m) => m.name === "Volkswagen")!.id;
    const models: { id: number; name: string }[] = (
      await t.app.inject({ url: `/api/vehicles/models?year=2016&make=${make}` })
    ).json();
    return { year: 2016, make, model: models.find((m) => m.name === "Golf")!.id };
  })();
  return golf;
}
const golfQuery = async () =>
  new URLSearchParams(Object.entries(await demoGolf()).map(([k, v]) => [k, String(v)]));
/** A fresh name for the vehicle database's rows (each call of a row makes its own). */
const vehicleName = (what: string) => `Matrix ${what} ${Math.random().toString(36).slice(2, 10)}`;
/** A text attribute of Steering parts, fresh, written straight in the database. */
const freshAttribute = async () =>
  (
    await t.database.db
      .insert(attributeDefinitions)
      .values({ category: "Steering", name: vehicleName("attribute"), kind: "text" })
      .returning({ id: attributeDefinitions.id })
  )[0]!.id;
/** A make, a model of it and one year of that model, fresh, written straight in the database. */
async function freshVehicle() {
  const [make] = await t.database.db
    .insert(vehicleMakes)
    .values({ name: vehicleName("make") })
    .returning();
  const [model] = await t.database.db
    .insert(vehicleModels)
    .values({ makeId: make!.id, name: vehicleName("model") })
    .returning();
  const [base] = await t.database.db
    .insert(baseVehicles)
    .values({ modelId: model!.id, year: 2019 })
    .returning();
  return { make: make!.id, model: model!.id, baseVehicle: base!.id };
}
const freshEngine = async () =>
  (
    await t.database.db
      .insert(vehicleEngines)
      .values({ name: vehicleName("engine") })
      .returning()
  )[0]!.id;
const freshSubmodel = async () =>
  (
    await t.database.db
      .insert(vehicleSubmodels)
      .values({ name: vehicleName("submodel") })
      .returning()
  )[0]!.id;
const vehicleCsvUpload = (url: string) =>
  upload(url, csvFile("year,make,model\n2019,Matrix CSV make,Matrix CSV model\n", "vehicles.csv"));
/** A vehicle in the customer's garage (saved again if a previous call removed it). */
async function customerGarageVehicle(): Promise<string> {
  const res = await post(accounts.customer, "/api/garage", await demoGolf());
  return res.json()[0].id;
}
const matrixAddress = {
  name: "Matrix Customer",
  line1: "1 Matrix Way",
  city: "Austin",
  region: "TX",
  postalCode: "78701",
  country: "US",
  phone: "5125550100",
};
/** A new address in the customer's address book. */
async function customerAddress(): Promise<string> {
  const res = await post(accounts.customer, "/api/user/addresses", matrixAddress);
  return res.json().id;
}
const matrixZone = () => ({
  name: `Matrix zone ${Math.random().toString(36).slice(2)}`,
  countries: ["US"],
  methods: [{ name: "Ground", kind: "flat", price: 5 }],
});
/** A new shipping zone, made by the admin. */
async function freshZone(): Promise<string> {
  const res = await post(accounts.admin, "/api/shipping-zones", matrixZone());
  return res.json().id;
}
let matrixRegions = 0;
/** A tax rate for a place of its own (one rate per country and region). */
const matrixRate = () => ({
  country: "US",
  region: `MX${++matrixRegions}`,
  name: "Matrix tax",
  rate: 5,
});
async function freshRate(): Promise<string> {
  const res = await post(accounts.admin, "/api/tax-rates", matrixRate());
  return res.json().id;
}
let matrixLocations = 0;
/** A stock location with a code of its own. */
const matrixLocation = () => ({
  code: `MX-${++matrixLocations}`,
  name: "Matrix warehouse",
  country: "US",
  servesCountries: ["US"],
});
/** A new stock location, made by the admin. */
async function freshLocation(): Promise<string> {
  const res = await post(accounts.admin, "/api/locations", matrixLocation());
  return res.json().id;
}
/** The home location's id. */
async function homeLocationId(): Promise<string> {
  const res = await t.app.inject({ url: "/api/locations", headers: as(accounts.admin) });
  return res.json().find((l: { isHome: boolean }) => l.isHome).id;
}
let matrixSupplies = 0;
/** Open supply of a fresh product at a new location (its id), entered by the admin. */
async function freshSupply(): Promise<string> {
  const res = await post(accounts.admin, "/api/incoming-supply", {
    kind: "purchase_order",
    reference: `MX-PO-${++matrixSupplies}`,
    productId: (await freshProduct()).id,
    locationId: await freshLocation(),
    qty: 10,
    expectedOn: "2027-01-12",
  });
  return res.json().id;
}
/** A ship-to address of the matrix company, put in directly (its id; the company's at). */
async function freshCompanyAddress(): Promise<{ at: string; id: string }> {
  const { companyId } = trade;
  const [row] = await t.database.db
    .insert(companyAddresses)
    .values({
      companyId,
      name: "Matrix dock",
      ...AUSTIN_DOCK,
    })
    .returning({ id: companyAddresses.id });
  return { at: `/api/companies/${companyId}/addresses`, id: row!.id };
}
/** A fresh price list with one entry (its product's id). */
async function freshPriceList() {
  const product = await freshProduct();
  const list = await createPriceList(t.app, accounts.admin, [
    { productId: product.id, unitPrice: 0.5 },
  ]);
  return { id: list.id, productId: product.id };
}
/** A new order of the matrix company's buyer, over their limit: awaiting the owner's approval. */
async function awaitingApprovalOrder(): Promise<string> {
  const { companyId, buyerId } = trade;
  // Set directly: the member PATCH row changes the limit too.
  await t.database.db
    .update(companyMembers)
    .set({ orderLimitCents: 0 })
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, buyerId)));
  const p = await freshProduct();
  const res = await post(accounts.buyer, "/api/orders", { ...matrixOrder, productId: p.id });
  if (res.json().order?.status !== "awaiting_approval") throw new Error(`order: ${res.body}`);
  return res.json().order._id;
}
/** An invoice on account (net 30) of one of the customer's orders, issued straight in the database. */
async function onAccountInvoice(): Promise<string> {
  const orderId = await customerOrder();
  return t.database.db.transaction(async (tx) => {
    await markOrderPaid(tx, orderId);
    return (await issueInvoice(tx, orderId, matrixSeller, new Date(), "net30")).id;
  });
}
let matrixReferences = 0;
/** A fresh invoice on account with one payment recorded against it. */
async function recordedPayment(): Promise<{ invoiceId: string; paymentId: string }> {
  const invoiceId = await onAccountInvoice();
  const [payment] = await t.database.db
    .insert(invoicePayments)
    .values({
      invoiceId,
      amountCents: 1,
      paidOn: new Date().toISOString().slice(0, 10),
      reference: `MATRIX-${++matrixReferences}`,
      recordedByEmail: "matrix-admin@example.com",
    })
    .returning();
  return { invoiceId, paymentId: payment!.id };
}
/** Approvals: the company's owner decides; anyone else 403 (admins only see the list). */
const approvalOwner = (status: number): Expect => ({
  anonymous: 401,
  customer: 403,
  other: 403,
  admin: 403,
  owner: status,
  buyer: 403,
  viewer: 403,
});
let matrixNames = 0;
const matrixName = () => `Matrix ${process.pid} ${++matrixNames}`;
/** A customer group of its own (no company in it, so it can be removed). */
const freshGroup = async () =>
  (await t.database.db.insert(customerGroups).values({ name: matrixName() }).returning())[0]!;
/** A discount code of its own (10 % off everything). */
const freshDiscountCode = async () =>
  (
    await t.database.db
      .insert(discountCodes)
      .values({
        code: `M${process.pid}x${++matrixNames}`,
        kind: "percent",
        percent: 10,
        scope: "all",
      })
      .returning()
  )[0]!;
/** A market's body with a code, a name and a country of its own (no market has these). */
let matrixMarkets = 0;
const matrixMarket = () => ({
  code: `MX${String(++matrixMarkets).replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!)}`,
  name: matrixName(),
  currency: "EUR",
  countries: ["JP KR CN AU NZ BR AR MX CL CO ZA IN".split(" ")[matrixMarkets % 12]!],
  rate: 0.9,
});
/** A market of its own, without countries. */
const freshMarket = async () =>
  (
    await t.database.db
      .insert(markets)
      .values({ code: matrixMarket().code, name: matrixName(), currency: "EUR", rate: 0.9 })
      .returning()
  )[0]!;
/** The other customer's id (no sign-up, whose per-IP budget the rows spend). */
async function otherId() {
  const [other] = await t.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, accounts.other.email));
  return other!.id;
}
/** A new group's rule, as its route's address. */
async function freshRuleUrl() {
  const group = await freshGroup();
  const [rule] = await t.database.db
    .insert(priceRules)
    .values({ groupId: group.id, percent: 5, scope: "brand", brand: "Matrix" })
    .returning();
  return `/api/customer-groups/${group.id}/rules/${rule!.id}`;
}
/** The company's owner, or an admin (`companyOwner`); anyone else is told it does not exist. */
const companyOwner = (status: number): Expect => ({
  anonymous: 401,
  customer: 404,
  other: 404,
  admin: status,
  owner: status,
  buyer: 404,
  viewer: 404,
});
/** Any member of the company, or an admin (`companyMember`); anyone else: 404. */
const companyMember = (status: number): Expect => ({
  ...companyOwner(status),
  buyer: status,
  viewer: status,
});
/**
 * The buyer's quote: who asked (the buyer) or an owner decides it; its viewer only reads it;
 * admins do not order; anyone else is told it does not exist.
 */
const quoteDecider = (status: number): Expect => ({
  anonymous: 401,
  customer: 404,
  other: 404,
  admin: 403,
  owner: status,
  buyer: status,
  viewer: 403,
});

/** One fixed request without a body. */
const urlCall = (url: string) => async (): Promise<Call> => ({ url });
/** A row whose call is one fixed request without a body: the route's own path, or `url`. */
const plain = (route: string, expect: Expect, url = route.slice(route.indexOf(" ") + 1)): Row => ({
  route,
  call: urlCall(url),
  expect,
});

/**
 * An admin's records at `path`: created (POST `path`: 201), changed (PATCH, or `changeWith`,
 * `path/:id`: 200) and deleted (DELETE `path/:id`: 204); `fresh` makes one to change or delete.
 */
function adminRecords(
  path: string,
  r: {
    create: () => unknown;
    fresh: () => Promise<string | number>;
    change: () => unknown;
    changeWith?: "PATCH" | "PUT";
  },
): Row[] {
  return [
    {
      route: `POST ${path}`,
      call: async () => ({ url: path, payload: await r.create() }),
      expect: adminOnly(201),
    },
    {
      route: `${r.changeWith ?? "PATCH"} ${path}/:id`,
      call: async () => ({ url: `${path}/${await r.fresh()}`, payload: await r.change() }),
      expect: adminOnly(200),
    },
    {
      route: `DELETE ${path}/:id`,
      call: async () => ({ url: `${path}/${await r.fresh()}` }),
      expect: adminOnly(204),
    },
  ];
}

/**
 * A row whose request goes to the route's own path, its one `:param` what `id` answers at each
 * call (a record made for it, or one of the matrix's), with `payload` when given.
 */
const onRecord = (
  route: string,
  expect: Expect,
  id: () => string | number | Promise<string | number>,
  payload?: unknown,
): Row => ({
  route,
  call: async () => {
    const at = String(await id());
    return { url: route.slice(route.indexOf(" ") + 1).replace(/:\w+/, () => at), payload };
  },
  expect,
});

/**
 * Actions on one record, `route/<action>` (`route` ends in the record's `:id`), each with its
 * body (undefined: none); `fresh` makes the record each call acts on.
 */
function actions(
  route: string,
  fresh: () => Promise<string>,
  expect: Expect,
  bodies: Record<string, unknown>,
): Row[] {
  const path = route.slice(route.indexOf(" ") + 1);
  return Object.entries(bodies).map(([action, payload]) => ({
    route: `${route}/${action}`,
    call: async () => {
      const at = await fresh();
      return { url: `${path.replace(/:\w+$/, () => at)}/${action}`, payload };
    },
    expect,
  }));
}

const docs = (route: string, url: string, status = 200) =>
  plain(`GET ${route}`, everyone(status), url);

const rows: Row[] = [
  plain("GET /api/health", everyone(200)),
  plain("GET /api/health/live", everyone(200)),
  plain("GET /api/health/ready", everyone(200)),
  plain("GET /api/config", everyone(200)),
  docs("/api/docs", "/api/docs"),
  docs("/api/docs/json", "/api/docs/json"),
  docs("/api/docs/yaml", "/api/docs/yaml"),
  docs("/api/docs/static/index.html", "/api/docs/static/index.html", 302),
  docs("/api/docs/static/swagger-initializer.js", "/api/docs/static/swagger-initializer.js"),
  docs("/api/docs/static/*", "/api/docs/static/swagger-ui.css"),
  plain("GET /api/auth/*", everyone(200), "/api/auth/get-session"),
  {
    route: "POST /api/auth/*",
    call: async () => ({
      url: "/api/auth/sign-in/email",
      payload: { email: "matrix-customer@example.com", password: "not-the-password" },
    }),
    expect: everyone(401),
  },
  // The demo mailbox (no SMTP_URL, never in production): a demo aid open to every visitor.
  plain("GET /api/dev/mailbox", everyone(200)),
  onRecord("GET /api/dev/mailbox/:id", everyone(200), firstMessageId),
  plain("GET /api/user", signedIn(200)),
  {
    route: "PUT /api/user",
    call: async () => ({
      url: "/api/user",
      payload: { education: "BSc", address: "1 Way", phoneNo: "5550100", linkedIn: "" },
    }),
    expect: signedIn(200),
  },
  // Each signed-in user reads and changes only their own choices (notifications/routes.test.ts).
  plain("GET /api/user/notifications", signedIn(200)),
  {
    route: "PUT /api/user/notifications",
    call: async () => ({ url: "/api/user/notifications", payload: { holdReminder: true } }),
    expect: signedIn(200),
  },
  plain("GET /api/reviews/hidden", adminOnly(200)),
  // Each signed-in user lists and ends only their own sessions (sessions/routes.test.ts).
  plain("GET /api/user/sessions", signedIn(200)),
  onRecord("DELETE /api/user/sessions/:id", ownerOnly(204), customerSecondSession),
  plain("DELETE /api/user/sessions", signedIn(200), "/api/user/sessions?except=current"),
  onRecord(
    "GET /api/admin/:email",
    likeOther({ anonymous: 401, customer: 200, other: 403, admin: 200 }),
    () => accounts.customer.email,
  ),
  plain("GET /api/users", adminOnly(200)),
  onRecord(
    "PUT /api/user/admin/:email",
    adminOnly(200),
    async () => (await bystanderId()).email,
    {},
  ),
  {
    route: "DELETE /api/users/:id/email-bounce",
    // The other customer's id (harmless: nothing to clear); no sign-up, whose per-IP budget the
    // rows above have spent.
    call: async () => ({ url: `/api/users/${await otherId()}/email-bounce` }),
    expect: adminOnly(200),
  },
  {
    route: "PUT /api/users/:id/customer-group",
    // The other customer, placed in retail (where they are: harmless).
    call: async () => ({
      url: `/api/users/${await otherId()}/customer-group`,
      payload: { customerGroupId: RETAIL_GROUP_ID },
    }),
    expect: adminOnly(200),
  },
  onRecord("DELETE /api/users/:id", adminOnly(200), async () => (await bystanderId()).id),
  {
    route: "POST /api/orders",
    call: async () => ({
      url: "/api/orders",
      payload: { ...matrixOrder, productId: (await freshProduct()).id },
    }),
    // Admins do not order: nobody could pay an admin's order (issue 11).
    expect: { ...signedIn(201), admin: 403, viewer: VIEWERS_DO_NOT_ORDER },
  },
  {
    route: "POST /api/orders/total",
    call: async () => ({
      url: "/api/orders/total",
      payload: { productId: (await freshProduct()).id, orderQty: 1, shipTo: TEST_SHIP_TO },
    }),
    expect: { ...signedIn(200), admin: 403, viewer: VIEWERS_DO_NOT_ORDER },
  },
  plain("GET /api/orders", signedIn(200)),
  onRecord("GET /api/orders/:id", { ...ownerOnly(200), admin: 200 }, customerOrder),
  // The owner gets as far as the gateway check, which refuses a forged transaction.
  onRecord("PATCH /api/orders/:id", ownerOnly(422), customerOrder, {
    transactionId: "pi_test_forged",
  }),
  onRecord("DELETE /api/orders/:id", ownerOnly(200), customerOrder),
  plain("GET /api/orders/all", adminOnly(200)),
  plain("GET /api/orders/overview", adminOnly(200)),
  plain("GET /api/holds", adminOnly(200)),
  plain("GET /api/holds/limits", adminOnly(200)),
  {
    route: "PUT /api/holds/limits",
    call: async () => ({
      url: "/api/holds/limits",
      payload: {
        holdHours: 48,
        newCustomerHoldMinutes: 30,
        holdWarningHours: 12,
        maxSharePercent: 50,
        freeUnits: 10,
        newCustomerSharePercent: 100,
        maxHeldValue: 25_000,
        ordersPerMinute: 10_000,
        quickOrderPerMinute: 60,
      },
    }),
    expect: adminOnly(200),
  },
  {
    route: "DELETE /api/holds/:userId",
    call: async () => {
      await customerOrder();
      const [customer] = await t.database.db
        .select({ id: user.id })
        .from(user)
        .where(eq(user.email, accounts.customer.email));
      return { url: `/api/holds/${customer!.id}` };
    },
    expect: adminOnly(200),
  },
  onRecord("PATCH /api/orders/:id/status", adminOnly(200), customerOrder, { status: "cancelled" }),
  // An order's invoice: its owner and admins (invoices/invoices.test.ts has the unpaid order's 404).
  onRecord("GET /api/orders/:id/invoice", { ...ownerOnly(200), admin: 200 }, customerPaidOrder),
  onRecord("GET /api/orders/:id/invoice.pdf", { ...ownerOnly(200), admin: 200 }, customerPaidOrder),
  // Net terms (terms/terms.test.ts): the invoices on account and their bank payments, admins only.
  plain("GET /api/invoices", adminOnly(200), "/api/invoices?status=open"),
  {
    route: "POST /api/invoices/:id/payments",
    call: async () => ({
      url: `/api/invoices/${await onAccountInvoice()}/payments`,
      payload: {
        amount: 0.01,
        paidOn: new Date().toISOString().slice(0, 10),
        reference: `MATRIX-${++matrixReferences}`,
      },
    }),
    expect: adminOnly(201),
  },
  onRecord(
    "GET /api/invoices/:id/payments",
    adminOnly(200),
    async () => (await recordedPayment()).invoiceId,
  ),
  {
    route: "POST /api/invoices/:id/payments/:paymentId/reverse",
    call: async () => {
      const { invoiceId, paymentId } = await recordedPayment();
      return {
        url: `/api/invoices/${invoiceId}/payments/${paymentId}/reverse`,
        payload: { reason: "Recorded on the wrong invoice" },
      };
    },
    expect: adminOnly(200),
  },
  // A paid line's units on backorder cancelled (workflows/cancel-backorder.test.ts): one unit of
  // a paid order's line written as waiting.
  {
    route: "DELETE /api/orders/:id/backorders/:line",
    call: async () => {
      const orderId = await customerPaidOrder();
      await t.database.db.execute(sql`
        insert into backorders (order_id, line, product_id, qty, waiting)
        select order_id, line, product_id, 1, 1 from order_items where order_id = ${orderId}`);
      return { url: `/api/orders/${orderId}/backorders/1` };
    },
    expect: { ...ownerOnly(200), admin: 200 },
  },
  // Partial shipment of lines (shipments/shipments.test.ts).
  onRecord(
    "GET /api/orders/:id/shipments",
    { ...ownerOnly(200), admin: 200 },
    customerShippedOrder,
  ),
  // The window an order was promised at checkout (shipping/delivery-promise.test.ts).
  onRecord(
    "GET /api/orders/:id/delivery-promise",
    { ...ownerOnly(200), admin: 200 },
    customerOrder,
  ),
  onRecord("POST /api/orders/:id/shipments", adminOnly(201), () => customerShippedOrder("paid"), {
    lines: [{ line: 1, qty: 1 }],
    carrier: "ups",
    trackingNumber: "1Z999AA10123456784",
  }),
  {
    route: "POST /api/shipments/lots",
    call: async () =>
      upload("/api/shipments/lots", csvFile("order,line,lot\nPW-999999,1,L-1\n", "lots.csv")),
    expect: adminOnly(200),
  },
  // Warranty claims (warranty/warranty.test.ts): a company buyer's order and claims.
  onRecord("GET /api/orders/:id/warranty", companyActors(200), buyerShippedOrder),
  onRecord("GET /api/orders/:id/warranty-claims", companyActors(200), buyerShippedOrder),
  {
    route: "POST /api/warranty-claims",
    call: async () => ({
      url: "/api/warranty-claims",
      payload: claimBody(await buyerShippedOrder()),
    }),
    expect: { ...companyActors(201), admin: 403 },
  },
  plain("GET /api/warranty-claims", signedIn(200)),
  onRecord("GET /api/warranty-claims/:id", companyActors(200), buyerClaim),
  onRecord("POST /api/warranty-claims/:id/messages", companyActors(200), buyerClaim, {
    body: "When was it fitted?",
  }),
  {
    route: "POST /api/warranty-claims/:id/photos",
    call: async () => ({
      url: `/api/warranty-claims/${await buyerClaim()}/photos`,
      ...returnPhotoBody(),
    }),
    expect: { ...companyActors(201), admin: 403 },
  },
  {
    route: "GET /api/warranty-claims/:id/photos/:photoId",
    call: async () => ({ url: await buyerClaimPhoto() }),
    expect: companyActors(200),
  },
  ...actions("POST /api/warranty-claims/:id", buyerClaim, adminOnly(200), {
    reject: { reason: "Worn, not failed." },
    "request-part": { instructions: "Send the part back." },
    approve: { remedy: "replacement" },
    inspect: { failureCode: "WEAR", findings: "Worn." },
  }),
  plain("GET /api/warranty/failure-codes", adminOnly(200)),
  {
    route: "PUT /api/warranty/failure-codes/:code",
    call: async () => ({
      url: "/api/warranty/failure-codes/MATRIX",
      payload: { label: "Matrix failure", active: true },
    }),
    expect: adminOnly(200),
  },
  plain("GET /api/warranty/settings", adminOnly(200)),
  plain("GET /api/warranty/report", adminOnly(200), "/api/warranty/report?from=2026-01"),
  plain("GET /api/warranty/report.csv", adminOnly(200)),
  {
    route: "PUT /api/warranty/settings",
    call: async () => ({
      url: "/api/warranty/settings",
      payload: { claimantDays: 14, storeDays: 5, reminderDays: 2 },
    }),
    expect: adminOnly(200),
  },
  // Returns, refunds and credit notes (returns/returns.test.ts).
  onRecord(
    "GET /api/orders/:id/returnable",
    { ...ownerOnly(200), admin: 200 },
    customerShippedOrder,
  ),
  onRecord(
    "GET /api/orders/:id/returns",
    { ...ownerOnly(200), admin: 200 },
    async () => (await customerReturn()).orderId,
  ),
  onRecord("POST /api/orders/:id/returns", ownerOnly(201), customerShippedOrder, {
    lines: [{ line: 1, qty: 1 }],
    reason: "did_not_fit",
    vehicle: "2012 VW Golf",
  }),
  onRecord(
    "GET /api/orders/:id/credit-notes",
    { ...ownerOnly(200), admin: 200 },
    customerShippedOrder,
  ),
  onRecord("GET /api/credit-notes/:id/pdf", { ...ownerOnly(200), admin: 200 }, customerCreditNote),
  {
    route: "POST /api/returns/:id/photos",
    call: async () => ({
      url: `/api/returns/${(await customerReturn()).id}/photos`,
      ...returnPhotoBody(),
    }),
    expect: ownerOnly(201),
  },
  {
    route: "GET /api/returns/:id/photos/:photoId",
    call: async () => ({ url: await customerReturnPhoto() }),
    expect: { ...ownerOnly(200), admin: 200 },
  },
  plain("GET /api/returns", adminOnly(200), "/api/returns?status=requested"),
  plain("GET /api/returns/fitment-report", adminOnly(200)),
  onRecord(
    "POST /api/returns/:id/decision",
    adminOnly(200),
    async () => (await customerReturn()).id,
    { decision: "approve" },
  ),
  onRecord(
    "POST /api/returns/:id/receive",
    adminOnly(200),
    async () => (await customerReturn(true)).id,
  ),
  onRecord("POST /api/returns/:id/refund", adminOnly(200), failedRefundReturn),
  plain("GET /api/returns/restocking-fee", adminOnly(200)),
  {
    route: "PUT /api/returns/restocking-fee",
    call: async () => ({
      url: "/api/returns/restocking-fee",
      payload: { percent: 0, conditions: [] },
    }),
    expect: adminOnly(200),
  },
  plain("GET /api/returns/windows", adminOnly(200)),
  {
    route: "PUT /api/returns/windows",
    call: async () => ({ url: "/api/returns/windows", payload: { days: 30, coreDays: 90 } }),
    expect: adminOnly(200),
  },
  plain("GET /api/contact", everyone(200)),
  onRecord("GET /api/orders/:id/detail", adminOnly(200), customerOrder),
  // The cart is the caller's own: each customer has one; admins do not order.
  plain("GET /api/cart", customers(200)),
  onRecord("PUT /api/cart/items/:productId", customers(200), freshProductId, { qty: 2 }),
  // A code nobody made: the guard lets customers through to the code's refusal (422).
  {
    route: "PUT /api/cart/discount-code",
    call: async () => ({ url: "/api/cart/discount-code", payload: { code: "NO-SUCH-CODE" } }),
    expect: customers(422),
  },
  plain("DELETE /api/cart/discount-code", customers(200)),
  onRecord("DELETE /api/cart/items/:productId", customers(200), freshProductId),
  {
    route: "POST /api/cart/merge",
    call: async () => ({
      url: "/api/cart/merge",
      payload: { items: [{ productId: (await freshProduct()).id, qty: 1 }] },
    }),
    expect: customers(200),
  },
  {
    route: "POST /api/cart/quote",
    call: async () => ({
      url: "/api/cart/quote",
      payload: { items: [{ productId: (await freshProduct()).id, qty: 1 }] },
    }),
    expect: everyone(200),
  },
  {
    route: "POST /api/checkout",
    call: async () => {
      // Every customer's cart holds one fresh part, so any of them can check out.
      const p = await fillCarts(customerAccounts());
      return {
        url: "/api/checkout",
        payload: { shipTo: TEST_SHIP_TO, expectedTotal: p.priceCents / 100 },
      };
    },
    expect: { ...customers(201), viewer: VIEWERS_DO_NOT_ORDER },
  },
  plain("GET /api/payments/refunds-due", adminOnly(200)),
  onRecord("POST /api/payments/:id/refund", adminOnly(200), customerRefundDuePayment),
  // Refunds that have not gone through, and their retry (workflows/refund-retry.test.ts).
  plain("GET /api/refunds", adminOnly(200)),
  onRecord("POST /api/refunds/:id/retry", adminOnly(200), failedRefund),
  {
    route: "POST /api/create-payment-intent",
    call: async () => ({
      url: "/api/create-payment-intent",
      payload: { orderId: await customerOrder() },
    }),
    expect: ownerOnly(200),
  },
  {
    route: "POST /api/payments/test-card/confirm",
    call: async () => ({
      url: "/api/payments/test-card/confirm",
      payload: {
        clientSecret: await customerIntentSecret(),
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
      },
    }),
    expect: ownerOnly(200),
  },
  plain("GET /api/products", everyone(200)),
  plain("GET /api/products/suggestions", everyone(200), "/api/products/suggestions?q=brake"),
  plain("GET /api/products/facets", everyone(200), "/api/products/facets?category=Brakes"),
  onRecord("GET /api/products/:id", everyone(200), freshProductId),
  {
    route: "POST /api/products",
    call: async () => ({ url: "/api/products", payload: productBody() }),
    expect: adminOnly(201),
  },
  {
    route: "PATCH /api/products/:id",
    call: productPatch({ shortDescription: "Edited by the matrix" }),
    expect: adminOnly(200),
  },
  onRecord("DELETE /api/products/:id", adminOnly(200), freshProductId),
  {
    route: "POST /api/products/images",
    call: async () =>
      upload("/api/products/images", { data: tinyGif, filename: "part.gif", type: "image/gif" }),
    expect: adminOnly(201),
  },
  plain("GET /api/admin/products/export.csv", adminOnly(200)),
  {
    route: "POST /api/admin/product-imports/preview",
    call: async () => upload("/api/admin/product-imports/preview", csvFile(matrixCsv(), "p.csv")),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/admin/product-imports",
    call: async () => upload("/api/admin/product-imports", csvFile(matrixCsv(), "p.csv")),
    expect: adminOnly(202),
  },
  {
    route: "GET /api/admin/product-imports/:id",
    call: async () => {
      const [job] = await t.database.db
        .insert(productImportJobs)
        .values({ createdBy: "admin@example.com", status: "done", total: 0 })
        .returning();
      return { url: `/api/admin/product-imports/${job!.id}` };
    },
    expect: adminOnly(200),
  },
  {
    route: "POST /api/imports/aces",
    call: async () =>
      upload("/api/imports/aces", {
        data: Buffer.from(
          '<ACES version="4.2"><Header><BrandAAIAID>MTRX</BrandAAIAID></Header></ACES>',
        ),
        filename: "matrix.xml",
        type: "application/xml",
        field: "file",
      }),
    expect: adminOnly(201),
  },
  {
    route: "POST /api/imports/pies",
    call: async () =>
      upload("/api/imports/pies", {
        data: Buffer.from("<PIES><Header><PIESVersion>7.1</PIESVersion></Header><Items/></PIES>"),
        filename: "matrix-pies.xml",
        type: "application/xml",
        field: "file",
      }),
    expect: adminOnly(201),
  },
  plain("GET /api/imports", adminOnly(200)),
  onRecord("GET /api/imports/:id", adminOnly(200), matrixImport),
  onRecord("POST /api/imports/:id/start", adminOnly(202), matrixImport),
  plain("GET /api/reviews", everyone(200)),
  plain("GET /api/reviews/summary", everyone(200)),
  {
    route: "POST /api/reviews",
    call: async () => ({ url: "/api/reviews", payload: { ratings: 5, descreption: "Solid part" } }),
    expect: likeOther({ anonymous: 401, customer: 201, other: 201, admin: 403 }),
  },
  plain("GET /api/vehicles/years", everyone(200)),
  plain("GET /api/vehicles/makes", everyone(200), "/api/vehicles/makes?year=2016"),
  {
    route: "GET /api/vehicles/models",
    call: async () => ({ url: `/api/vehicles/models?year=2016&make=${(await demoGolf()).make}` }),
    expect: everyone(200),
  },
  {
    route: "GET /api/vehicles/engines",
    call: async () => ({ url: `/api/vehicles/engines?${await golfQuery()}` }),
    expect: everyone(200),
  },
  {
    route: "GET /api/vehicles/vehicle",
    call: async () => ({ url: `/api/vehicles/vehicle?${await golfQuery()}` }),
    expect: everyone(200),
  },
  plain("GET /api/vehicles/vin/:vin", everyone(200), "/api/vehicles/vin/WVWZZZAU1GW012345"),
  plain("GET /api/vehicles/table", adminOnly(200), "/api/vehicles/table?year=2019"),
  plain("GET /api/vehicles/names", adminOnly(200)),
  ...adminRecords("/api/vehicles/makes", {
    create: () => ({ name: vehicleName("make") }),
    fresh: async () => (await freshVehicle()).make,
    change: () => ({ name: vehicleName("make") }),
  }),
  ...adminRecords("/api/vehicles/models", {
    create: async () => ({ makeId: (await freshVehicle()).make, name: vehicleName("model") }),
    fresh: async () => (await freshVehicle()).model,
    change: () => ({ name: vehicleName("model") }),
  }),
  ...adminRecords("/api/vehicles/engines", {
    create: () => ({ name: vehicleName("engine") }),
    fresh: freshEngine,
    change: () => ({ liters: "1.5", fuel: "Petrol" }),
  }),
  ...adminRecords("/api/vehicles/base-vehicles", {
    create: async () => ({
      modelId: (await freshVehicle()).model,
      yearFrom: 2020,
      yearTo: 2021,
      engineIds: [await freshEngine()],
    }),
    fresh: async () => (await freshVehicle()).baseVehicle,
    change: async () => ({ year: 2018, engineIds: [await freshEngine()] }),
  }),
  ...adminRecords("/api/vehicles/submodels", {
    create: () => ({ name: vehicleName("submodel") }),
    fresh: freshSubmodel,
    change: () => ({ name: vehicleName("submodel") }),
  }),
  plain("GET /api/vehicles/export.csv", adminOnly(200)),
  {
    route: "POST /api/vehicles/import/preview",
    call: async () => vehicleCsvUpload("/api/vehicles/import/preview"),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/vehicles/import",
    // Importing the same file again changes nothing, and answers the same.
    call: async () => vehicleCsvUpload("/api/vehicles/import"),
    expect: adminOnly(200),
  },
  {
    route: "GET /api/products/:id/fitment",
    call: async () => ({
      url: `/api/products/${(await freshProduct()).id}/fitment?${await golfQuery()}`,
    }),
    expect: everyone(200),
  },
  {
    route: "GET /api/parts/:slug",
    call: async () => {
      const p = await freshProduct();
      return { url: `/api/parts/${partSlug(p.partNumber, p.name)}` };
    },
    expect: everyone(200),
  },
  plain("GET /api/attributes", everyone(200), "/api/attributes?category=Steering"),
  plain("GET /api/attributes/table", adminOnly(200), "/api/attributes/table?category=Steering"),
  ...adminRecords("/api/attributes", {
    create: () => ({ category: "Other", name: vehicleName("attribute"), kind: "text" }),
    fresh: freshAttribute,
    change: () => ({ name: vehicleName("attribute") }),
  }),
  onRecord("PUT /api/products/:id/attributes", adminOnly(200), freshProductId, { values: [] }),
  onRecord("GET /api/products/:id/fitment-rows", adminOnly(200), freshProductId),
  {
    route: "PUT /api/products/:id/fitment-rows",
    call: async () => {
      const { make, model } = await demoGolf();
      return {
        url: `/api/products/${(await freshProduct()).id}/fitment-rows`,
        payload: { rows: [{ make, model, yearFrom: 2014, yearTo: 2016, position: "Front" }] },
      };
    },
    expect: adminOnly(200),
  },
  plain("GET /api/garage", customers(200)),
  {
    route: "POST /api/garage",
    call: async () => ({ url: "/api/garage", payload: await demoGolf() }),
    expect: customers(200),
  },
  // Another customer is told it is not in their garage; admins have no garage.
  onRecord(
    "DELETE /api/garage/:id",
    likeOther({ anonymous: 401, customer: 200, other: 404, admin: 403 }),
    customerGarageVehicle,
  ),
  // The address book is the customer's own; admins do not order, so they have none.
  plain("GET /api/user/addresses", customers(200)),
  {
    route: "POST /api/user/addresses",
    call: async () => ({ url: "/api/user/addresses", payload: matrixAddress }),
    expect: customers(201),
  },
  onRecord(
    "PATCH /api/user/addresses/:id",
    likeOther({ anonymous: 401, customer: 200, other: 404, admin: 403 }),
    customerAddress,
    { line2: "Unit 2" },
  ),
  onRecord(
    "DELETE /api/user/addresses/:id",
    likeOther({ anonymous: 401, customer: 204, other: 404, admin: 403 }),
    customerAddress,
  ),
  plain("GET /api/shipping-zones", adminOnly(200)),
  ...adminRecords("/api/shipping-zones", {
    create: matrixZone,
    fresh: freshZone,
    change: matrixZone,
    changeWith: "PUT",
  }),
  plain("GET /api/locations", adminOnly(200)),
  // How orders are allocated (inventory/allocation.test.ts): saved as the store's default.
  plain("GET /api/locations/allocation-policy", adminOnly(200)),
  {
    route: "PUT /api/locations/allocation-policy",
    call: async () => ({ url: "/api/locations/allocation-policy", payload: { wholeOrder: false } }),
    expect: adminOnly(200),
  },
  {
    route: "POST /api/locations",
    call: async () => ({ url: "/api/locations", payload: matrixLocation() }),
    expect: adminOnly(201),
  },
  onRecord("PATCH /api/locations/:id", adminOnly(200), freshLocation, {
    name: "Matrix warehouse renamed",
  }),
  onRecord("GET /api/locations/stock/:productId", adminOnly(200), freshProductId),
  onRecord("PUT /api/locations/stock/:productId/backorders", adminOnly(200), freshProductId, {
    takes: true,
    leadDays: 21,
  }),
  {
    route: "PUT /api/locations/:id/stock/:productId",
    call: async () => ({
      url: `/api/locations/${await freshLocation()}/stock/${(await freshProduct()).id}`,
      payload: { onHand: 5, reorderLevel: 2 },
    }),
    expect: adminOnly(200),
  },
  plain("GET /api/locations/transfers", adminOnly(200)),
  {
    route: "POST /api/locations/transfers",
    call: async () => ({
      url: "/api/locations/transfers",
      payload: {
        productId: (await freshProduct()).id,
        fromLocationId: await homeLocationId(),
        toLocationId: await freshLocation(),
        qty: 1,
      },
    }),
    expect: adminOnly(201),
  },
  plain("GET /api/incoming-supply", adminOnly(200), "/api/incoming-supply?status=open"),
  {
    route: "POST /api/incoming-supply",
    call: async () => ({
      url: "/api/incoming-supply",
      payload: {
        kind: "production",
        reference: `MX-RUN-${++matrixSupplies}`,
        productId: (await freshProduct()).id,
        locationId: await homeLocationId(),
        qty: 5,
        expectedOn: "2027-02-01",
      },
    }),
    expect: adminOnly(201),
  },
  {
    route: "POST /api/incoming-supply/import",
    call: async () =>
      upload(
        "/api/incoming-supply/import",
        csvFile(
          "kind,reference,part_number,location_code,qty,expected_on\nproduction,R-1,NOPE,MAIN,1,2027-01-12\n",
          "supply.csv",
        ),
      ),
    expect: adminOnly(200),
  },
  onRecord("PATCH /api/incoming-supply/:id", adminOnly(200), freshSupply, {
    expectedOn: "2027-03-01",
  }),
  ...actions("POST /api/incoming-supply/:id", freshSupply, adminOnly(200), {
    cancel: undefined,
    receive: { qty: 1 },
  }),
  plain("GET /api/backorders", adminOnly(200), "/api/backorders?q=PW-100001"),
  plain("GET /api/tax-rates", adminOnly(200)),
  ...adminRecords("/api/tax-rates", {
    create: matrixRate,
    fresh: freshRate,
    change: matrixRate,
    changeWith: "PUT",
  }),
  {
    route: "POST /api/tax-rates/import",
    call: async () => ({
      url: "/api/tax-rates/import",
      payload: {
        csv: `country,region,postal_code,name,rate\nUS,MI,${++matrixRegions}*,Matrix tax,5\n`,
      },
    }),
    expect: adminOnly(200),
  },
  // The admin home (docs/admin-home.md).
  plain("GET /api/admin-home", adminOnly(200)),
  plain("GET /api/admin-home/low-stock-email", adminOnly(200)),
  {
    route: "PUT /api/admin-home/low-stock-email",
    call: async () => ({
      url: "/api/admin-home/low-stock-email",
      payload: { enabled: false, hourUtc: 7 },
    }),
    expect: adminOnly(200),
  },
  onRecord("PUT /api/products/:id/reorder-level", adminOnly(200), freshProductId, {
    reorderLevel: 5,
  }),
  // Core deposits (docs/core-charges.md).
  onRecord("PUT /api/products/:id/core-deposit", adminOnly(200), freshProductId, {
    coreDeposit: 45,
  }),
  // Quick order (docs/quick-order.md): anyone may resolve (a visitor at list prices); adding
  // to a cart is for customers.
  {
    route: "POST /api/quick-order/resolve",
    call: async () => ({
      url: "/api/quick-order/resolve",
      payload: { lines: [{ number: (await freshProduct()).partNumber, qty: 1 }] },
    }),
    expect: everyone(200),
  },
  {
    route: "POST /api/quick-order/upload",
    call: async () =>
      upload(
        "/api/quick-order/upload",
        csvFile(`part number;qty\n${(await freshProduct()).partNumber};1\n`, "order.csv"),
      ),
    expect: everyone(200),
  },
  {
    route: "POST /api/quick-order/add-to-cart",
    call: async () => ({
      url: "/api/quick-order/add-to-cart",
      payload: { lines: [{ number: (await freshProduct()).partNumber, qty: 1 }] },
    }),
    expect: customers(200),
  },
  onRecord("POST /api/orders/:id/reorder", ownerOnly(200), customerOrder),
  plain("GET /api/lists", customers(200)),
  {
    route: "POST /api/lists",
    call: async () => ({ url: "/api/lists", payload: { name: `New list ${++matrixListCount}` } }),
    expect: customers(201),
  },
  onRecord("GET /api/lists/:id", listOwner(200), async () => (await customerList()).id),
  {
    route: "PATCH /api/lists/:id",
    call: async () => ({
      url: `/api/lists/${(await customerList()).id}`,
      payload: { name: `Renamed ${++matrixListCount}` },
    }),
    expect: listOwner(200),
  },
  onRecord("DELETE /api/lists/:id", listOwner(204), async () => (await customerList()).id),
  {
    route: "PUT /api/lists/:id/items/:productId",
    call: async () => {
      const list = await customerList();
      return { url: `/api/lists/${list.id}/items/${list.productId}`, payload: { qty: 3 } };
    },
    expect: listOwner(200),
  },
  {
    route: "DELETE /api/lists/:id/items/:productId",
    call: async () => {
      const list = await customerList();
      return { url: `/api/lists/${list.id}/items/${list.productId}` };
    },
    expect: listOwner(200),
  },
  onRecord(
    "POST /api/lists/:id/add-to-cart",
    listOwner(200),
    async () => (await customerList()).id,
  ),
  // For the scraper's bearer token only (metrics.test.ts); a session, even an admin's, is not it.
  plain("GET /metrics", everyone(401)),
  onRecord(
    "DELETE /api/user/admin/:email",
    adminOnly(200),
    async () => (await bystanderId()).email,
  ),
  plain("GET /api/audit", adminOnly(200)),
  onRecord(
    "PATCH /api/reviews/:id",
    adminOnly(204),
    async () => (await insertReview(t.database.db)).id,
    { hidden: true },
  ),
  onRecord(
    "DELETE /api/reviews/:id",
    adminOnly(204),
    async () => (await insertReview(t.database.db)).id,
  ),
  plain("GET /api/reviews/pending", adminOnly(200)),
  onRecord(
    "POST /api/reviews/:id/approve",
    adminOnly(204),
    async () => (await insertReview(t.database.db, { pendingSince: new Date() })).id,
  ),
  // Trade: a caller's own price (a company buyer's price list), price lists, companies.
  onRecord("GET /api/products/:id/price", everyone(200), freshProductId),
  // Customer groups and their price rules (pricing/groups.test.ts): admins only.
  plain("GET /api/customer-groups", adminOnly(200)),
  ...adminRecords("/api/customer-groups", {
    create: () => ({ name: matrixName() }),
    fresh: async () => (await freshGroup()).id,
    change: () => ({ tradeMinimums: false }),
  }),
  onRecord(
    "GET /api/customer-groups/:id/rules",
    adminOnly(200),
    async () => (await freshGroup()).id,
  ),
  onRecord(
    "POST /api/customer-groups/:id/rules",
    adminOnly(201),
    async () => (await freshGroup()).id,
    { percent: 10, scope: "category", category: "Brakes" },
  ),
  {
    route: "PATCH /api/customer-groups/:id/rules/:ruleId",
    call: async () => ({
      url: await freshRuleUrl(),
      payload: { percent: 15, scope: "category", category: "Brakes" },
    }),
    expect: adminOnly(200),
  },
  {
    route: "DELETE /api/customer-groups/:id/rules/:ruleId",
    call: async () => ({ url: await freshRuleUrl() }),
    expect: adminOnly(204),
  },
  // Discount codes (pricing/discount-codes.test.ts): admins only.
  plain("GET /api/discount-codes", adminOnly(200)),
  ...adminRecords("/api/discount-codes", {
    create: () => ({ code: `M${process.pid}x${++matrixNames}`, kind: "percent", percent: 10 }),
    fresh: async () => (await freshDiscountCode()).id,
    change: () => ({ code: `M${process.pid}x${++matrixNames}`, kind: "amount", amount: 2 }),
  }),
  onRecord(
    "GET /api/discount-codes/:id",
    adminOnly(200),
    async () => (await freshDiscountCode()).id,
  ),
  // Markets (pricing/markets.test.ts): everyone sees the active ones; admins change them.
  plain("GET /api/markets", everyone(200)),
  {
    route: "POST /api/markets",
    call: async () => ({ url: "/api/markets", payload: matrixMarket() }),
    expect: adminOnly(201),
  },
  {
    route: "PATCH /api/markets/:id",
    call: async () => ({
      url: `/api/markets/${(await freshMarket()).id}`,
      payload: matrixMarket(),
    }),
    expect: adminOnly(200),
  },
  plain("GET /api/price-lists", adminOnly(200)),
  ...adminRecords("/api/price-lists", {
    create: () => ({ name: matrixName() }),
    fresh: async () => (await freshPriceList()).id,
    change: () => ({ name: matrixName() }),
  }),
  onRecord("GET /api/price-lists/:id", adminOnly(200), () => trade.priceListId),
  onRecord("GET /api/price-lists/:id/entries", adminOnly(200), () => trade.priceListId),
  {
    route: "PUT /api/price-lists/:id/entries/:productId",
    call: async () => {
      const list = await freshPriceList();
      return {
        url: `/api/price-lists/${list.id}/entries/${list.productId}`,
        payload: { unitPrice: 0.4, breaks: [{ minQty: 10, unitPrice: 0.3 }] },
      };
    },
    expect: adminOnly(200),
  },
  {
    route: "DELETE /api/price-lists/:id/entries/:productId",
    call: async () => {
      const list = await freshPriceList();
      return { url: `/api/price-lists/${list.id}/entries/${list.productId}` };
    },
    expect: adminOnly(204),
  },
  onRecord("GET /api/price-lists/:id/entries.csv", adminOnly(200), () => trade.priceListId),
  {
    route: "POST /api/price-lists/:id/entries/import",
    call: async () => {
      const p = await freshProduct();
      return {
        url: `/api/price-lists/${(await freshPriceList()).id}/entries/import`,
        payload: { csv: `part_number,unit_price,breaks\n${p.partNumber},1.00,5:0.90\n` },
      };
    },
    expect: adminOnly(200),
  },
  plain("GET /api/companies", adminOnly(200)),
  {
    route: "POST /api/companies",
    call: async () => ({ url: "/api/companies", payload: { name: matrixName() } }),
    expect: adminOnly(201),
  },
  onRecord("GET /api/companies/:id", adminOnly(200), () => trade.companyId),
  onRecord("PATCH /api/companies/:id", adminOnly(200), () => trade.companyId, {
    paymentTerms: "net30",
  }),
  onRecord("GET /api/companies/:id/tax", adminOnly(200), () => trade.companyId),
  onRecord("PUT /api/companies/:id/tax", adminOnly(200), () => trade.companyId, {
    taxId: "DE123456789",
    exemptionCertificate: null,
  }),
  {
    // VIES checks are off in this app (no VIES_URL under NODE_ENV=test): the admin's 409 says so
    // (companies/vat-checks.test.ts checks against a local stand-in of VIES).
    route: "POST /api/companies/:id/tax/vies-check",
    call: async () => ({ url: `/api/companies/${trade.companyId}/tax/vies-check` }),
    expect: adminOnly(409),
  },
  onRecord("GET /api/companies/:id/members", companyOwner(200), () => trade.companyId),
  {
    route: "PATCH /api/companies/:id/members/:userId",
    call: async () => {
      const { companyId, buyerId } = trade;
      return {
        url: `/api/companies/${companyId}/members/${buyerId}`,
        payload: { orderLimit: 250, monthlyLimit: null },
      };
    },
    expect: companyOwner(200),
  },
  {
    route: "DELETE /api/companies/:id/members/:userId",
    call: async () => {
      const { companyId } = trade;
      // A member put in directly (joining by email is companies.test.ts's subject).
      const member = await bystanderId();
      await t.database.db
        .insert(companyMembers)
        .values({ companyId, userId: member.id, role: "viewer" });
      return { url: `/api/companies/${companyId}/members/${member.id}` };
    },
    expect: companyOwner(204),
  },
  {
    // Any member lists them (companies/address-roles.test.ts); owners manage them.
    route: "GET /api/companies/:id/addresses",
    call: async () => ({ url: (await freshCompanyAddress()).at }),
    expect: companyMember(200),
  },
  onRecord(
    "POST /api/companies/:id/addresses",
    { ...companyOwner(201), buyer: 403, viewer: 403 },
    () => trade.companyId,
    {
      name: "Matrix yard",
      line1: "2 Main St",
      city: "Austin",
      region: "TX",
      postalCode: "78701",
      country: "US",
      phone: "5125550100",
    },
  ),
  {
    route: "PATCH /api/companies/:id/addresses/:addressId",
    call: async () => {
      const { at, id } = await freshCompanyAddress();
      return { url: `${at}/${id}`, payload: { line2: "Door 2" } };
    },
    expect: { ...companyOwner(200), buyer: 403, viewer: 403 },
  },
  {
    route: "DELETE /api/companies/:id/addresses/:addressId",
    call: async () => {
      const { at, id } = await freshCompanyAddress();
      return { url: `${at}/${id}` };
    },
    expect: { ...companyOwner(204), buyer: 403, viewer: 403 },
  },
  onRecord("GET /api/companies/:id/invitations", companyOwner(200), () => trade.companyId),
  {
    route: "POST /api/companies/:id/invitations",
    call: async () => ({
      url: `/api/companies/${trade.companyId}/invitations`,
      payload: { email: `matrix-invite-${++matrixNames}@example.com`, role: "buyer" },
    }),
    expect: companyOwner(201),
  },
  {
    route: "DELETE /api/companies/:id/invitations/:invitationId",
    call: async () => {
      const { companyId } = trade;
      const inv = await post(accounts.admin, `/api/companies/${companyId}/invitations`, {
        email: `matrix-withdrawn-${++matrixNames}@example.com`,
        role: "viewer",
      });
      return { url: `/api/companies/${companyId}/invitations/${inv.json().id}` };
    },
    expect: companyOwner(204),
  },
  {
    // An invitation to a bystander's address: nobody else may accept it (admins join nothing;
    // the address is checked before the membership). Accepting one's own is in
    // companies/companies.test.ts.
    route: "POST /api/company-invitations/accept",
    call: async () => {
      const { companyId } = trade;
      // Written directly with a known token (the emailed link is companies.test.ts's subject).
      const token = `matrix-token-${++matrixNames}`;
      await t.database.db.insert(companyInvitations).values({
        companyId,
        email: `matrix-bystander-${matrixNames}@example.com`,
        role: "buyer",
        tokenHash: createHash("sha256").update(token).digest("hex"),
        invitedBy: "matrix",
        expiresAt: new Date(Date.now() + 3600_000),
      });
      return { url: "/api/company-invitations/accept", payload: { token } };
    },
    expect: signedIn(403),
  },
  plain("GET /api/company", signedIn(200)),
  {
    // Its owners and viewers; buyers 403; a customer of no company 404; admins do not order.
    route: "GET /api/company/invoices",
    call: async () => ({ url: "/api/company/invoices" }),
    expect: { ...companyMember(200), customer: 404, other: 404, admin: 403, buyer: 403 },
  },
  plain("GET /api/approvals", { ...approvalOwner(200), admin: 200 }),
  plain("GET /api/approvals/settings", adminOnly(200)),
  {
    route: "PUT /api/approvals/settings",
    call: async () => ({
      url: "/api/approvals/settings",
      payload: { windowBusinessDays: 3, reminderHours: 24 },
    }),
    expect: adminOnly(200),
  },
  ...actions("POST /api/approvals/:orderId", awaitingApprovalOrder, approvalOwner(200), {
    approve: { note: "Approved in the matrix" },
    decline: {},
  }),
  {
    route: "POST /api/quotes",
    call: async () => {
      await fillCarts(customerAccounts());
      return { url: "/api/quotes", payload: { note: "Matrix" } };
    },
    expect: { ...customers(201), viewer: VIEWERS_DO_NOT_ORDER },
  },
  plain("GET /api/quotes", signedIn(200)),
  onRecord("GET /api/quotes/:id", companyMember(200), buyerQuote),
  {
    route: "POST /api/quotes/:id/send",
    call: async () => {
      const id = await buyerQuote();
      const [line] = (
        await t.app.inject({ url: `/api/quotes/${id}`, headers: as(accounts.admin) })
      ).json().lines;
      return {
        url: `/api/quotes/${id}/send`,
        payload: {
          lines: [{ productId: line.productId, unitPrice: 2 }],
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
      };
    },
    expect: adminOnly(200),
  },
  onRecord("POST /api/quotes/:id/accept", quoteDecider(201), () => buyerQuote(true), {
    shipTo: TEST_SHIP_TO,
  }),
  onRecord("POST /api/quotes/:id/total", quoteDecider(200), () => buyerQuote(true), {
    shipTo: TEST_SHIP_TO,
  }),
  onRecord("POST /api/quotes/:id/decline", quoteDecider(200), () => buyerQuote(true)),
  // The store's side and the company's, but not its viewers.
  onRecord("POST /api/quotes/:id/messages", { ...companyMember(201), viewer: 403 }, buyerQuote, {
    body: "Matrix message",
  }),
  // API keys (docs/api-keys.md): admins, with their session (a key's rows are below).
  plain("GET /api/api-keys", adminOnly(200)),
  {
    route: "POST /api/api-keys",
    call: async () => ({
      url: "/api/api-keys",
      payload: { name: matrixName(), scopes: ["orders:read"] },
    }),
    expect: adminOnly(201),
  },
  onRecord("PATCH /api/api-keys/:id", adminOnly(200), freshApiKey, { rateLimitPerMinute: 100 }),
  ...actions("POST /api/api-keys/:id", freshApiKey, adminOnly(200), {
    rotate: undefined,
    revoke: undefined,
  }),
  // Webhooks (docs/webhooks.md): admins (and keys with webhooks:manage, below).
  plain("GET /api/webhook-endpoints", adminOnly(200)),
  ...adminRecords("/api/webhook-endpoints", {
    create: () => ({ url: "http://127.0.0.1:9/matrix", eventTypes: ["order.placed"] }),
    fresh: freshWebhookEndpoint,
    change: () => ({ description: "Matrix" }),
  }),
  onRecord("GET /api/webhook-endpoints/:id", adminOnly(200), freshWebhookEndpoint),
  onRecord("POST /api/webhook-endpoints/:id/rotate-secret", adminOnly(200), freshWebhookEndpoint),
  onRecord("POST /api/webhook-endpoints/:id/test", adminOnly(202), freshWebhookEndpoint),
  plain("GET /api/webhook-deliveries", adminOnly(200), "/api/webhook-deliveries?status=failed"),
  onRecord("GET /api/webhook-deliveries/:id", adminOnly(200), freshWebhookDelivery),
  onRecord("POST /api/webhook-deliveries/:id/replay", adminOnly(202), freshWebhookDelivery),
  // Bulk stock and price sync, change cursors (docs/bulk-sync.md): admins (and keys, below).
  {
    route: "PUT /api/bulk/stock",
    call: async () => bulkCall("stock"),
    expect: adminOnly(200),
  },
  {
    route: "PUT /api/bulk/prices",
    call: async () => bulkCall("prices"),
    expect: adminOnly(200),
  },
  plain("GET /api/sync/orders", adminOnly(200), "/api/sync/orders?limit=5"),
  plain("GET /api/sync/invoices", adminOnly(200), "/api/sync/invoices?limit=5"),
];

/** A one-line bulk file of a fresh part (its stock, or its list price). */
async function bulkCall(kind: "stock" | "prices"): Promise<Call> {
  const p = await freshProduct();
  return {
    url: `/api/bulk/${kind}`,
    payload:
      kind === "stock"
        ? `partNumber,stock\n${p.partNumber},5\n`
        : `partNumber,price\n${p.partNumber},12.50\n`,
    headers: { "content-type": "text/csv" },
  };
}

/** A new API key of the admin's, made in the service (its id). */
async function freshApiKey(): Promise<string> {
  const admin = { id: await userIdOf(accounts.admin), email: accounts.admin.email };
  const made = await createApiKeyService(t.database.db).create(admin, {
    name: matrixName(),
    scopes: ["orders:read"],
  });
  return made.apiKey.id;
}

/** A webhook endpoint on a port nothing listens on (its deliveries fail and wait to retry). */
async function freshWebhookEndpoint(): Promise<string> {
  const admin = { id: await userIdOf(accounts.admin), email: accounts.admin.email };
  const made = await createWebhookService(t.database.db, { allowPrivateAddresses: true }).create(
    admin,
    { url: "http://127.0.0.1:9/matrix", eventTypes: ["order.placed"] },
  );
  return made.endpoint.id;
}

async function freshWebhookDelivery(): Promise<string> {
  const admin = { id: await userIdOf(accounts.admin), email: accounts.admin.email };
  const service = createWebhookService(t.database.db, { allowPrivateAddresses: true });
  return (await service.sendTest(admin, await freshWebhookEndpoint())).id;
}

test("the table covers every API route the server has, and nothing else", () => {
  // The Stripe webhook exists only when Stripe is configured; payments.test.ts covers it.
  expect([...routes].sort()).toEqual(rows.map((r) => r.route).sort());
});

// One test per route (about 1,200 calls in all: one test ran past its time beside other files).
describe("every route answers each kind of caller as the table says", () => {
  test.each(rows.map((row) => [row.route, row] as const))("%s", async (_, row) => {
    const method = row.route.split(" ")[0] as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    const got: Record<string, number> = {};
    for (const role of roles) {
      const c = await row.call();
      const res = await t.app.inject({
        method,
        url: c.url,
        payload: c.payload as string | object | Buffer | undefined,
        headers: { ...c.headers, ...(role === "anonymous" ? {} : as(accounts[role])) },
      });
      got[role] = res.statusCode;
      if (res.statusCode >= 400) {
        expect(res.json(), `${row.route} as ${role}`).toMatchObject({
          error: expect.any(String),
          message: expect.any(String),
        });
      }
    }
    expect(got).toEqual(row.expect);
  });
});

/**
 * API keys (docs/api-keys.md): a key of each scope, and a revoked, an expired and an unknown
 * key, against one route of every family. A key reaches a route only when the route declares a
 * scope the key holds (`scope`: it then gets `status`); every other key is refused 403, and a key
 * that is not valid 401. Routes for people (a customer's cart, orders, lists; a signed-in user's
 * own pages), admin routes without a scope and public routes without one refuse every key.
 */
type KeyKind = ApiScope | "revoked" | "expired" | "unknown";
const keyKinds: KeyKind[] = [...apiScopes, "revoked", "expired", "unknown"];
interface KeyRow {
  family: string;
  route: string;
  call: () => Promise<Call>;
  /** The scope that opens it (null: no key may call it), and what that key gets. */
  scope: ApiScope | null;
  status?: number;
}
/** The request of the matrix's row for `route` (above): a key row makes the same one. */
function callOf(route: string): Row["call"] {
  const row = rows.find((r) => r.route === route);
  if (!row) throw new Error(`The matrix has no row ${route}`);
  return row.call;
}
/** A route the key of `scope` opens (it gets `status`); its request is the matrix row's. */
const keyRow = (
  family: string,
  route: string,
  scope: ApiScope,
  status: number,
  call = callOf(route),
): KeyRow => ({ family, route, call, scope, status });
/** A route no key may call; its request is the matrix row's unless `call` makes another. */
const noKeyRow = (family: string, route: string, call = callOf(route)): KeyRow => ({
  family,
  route,
  call,
  scope: null,
});
const keyRows: KeyRow[] = [
  // catalog:read
  keyRow("catalog (public)", "GET /api/products", "catalog:read", 200),
  keyRow("part pages", "GET /api/products/:id", "catalog:read", 200),
  keyRow("vehicles (public)", "GET /api/vehicles/years", "catalog:read", 200),
  keyRow("vehicle database", "GET /api/vehicles/table", "catalog:read", 200),
  keyRow("attributes", "GET /api/attributes/table", "catalog:read", 200),
  keyRow("imports", "GET /api/imports", "catalog:read", 200),
  keyRow("product CSV", "GET /api/admin/products/export.csv", "catalog:read", 200),
  // catalog:write
  keyRow("products", "POST /api/products", "catalog:write", 201),
  keyRow(
    "products",
    "PATCH /api/products/:id (description)",
    "catalog:write",
    200,
    productPatch({ shortDescription: "Edited by a key" }),
  ),
  keyRow("product CSV", "POST /api/admin/product-imports/preview", "catalog:write", 200),
  keyRow("fitment", "PUT /api/products/:id/fitment-rows", "catalog:write", 200),
  keyRow("vehicle database", "POST /api/vehicles/makes", "catalog:write", 201),
  keyRow("attributes", "POST /api/attributes", "catalog:write", 201),
  // inventory:write
  keyRow(
    "stock",
    "PATCH /api/products/:id (stock)",
    "inventory:write",
    200,
    productPatch({ availableQuantity: 5, availableQuantityWas: 1000 }),
  ),
  keyRow("reorder levels", "PUT /api/products/:id/reorder-level", "inventory:write", 200),
  // prices:write
  keyRow(
    "list prices",
    "PATCH /api/products/:id (price)",
    "prices:write",
    200,
    productPatch({ price: 12.5 }),
  ),
  keyRow("price lists", "POST /api/price-lists", "prices:write", 201),
  keyRow("core deposits", "PUT /api/products/:id/core-deposit", "prices:write", 200),
  // orders:read
  keyRow("orders", "GET /api/orders/all", "orders:read", 200),
  keyRow("orders", "GET /api/orders/:id/detail", "orders:read", 200),
  keyRow("bulk sync (stock)", "PUT /api/bulk/stock", "inventory:write", 200),
  keyRow("bulk sync (prices)", "PUT /api/bulk/prices", "prices:write", 200),
  keyRow("change cursors", "GET /api/sync/orders", "orders:read", 200),
  keyRow("change cursors", "GET /api/sync/invoices", "orders:read", 200),
  keyRow("holds", "GET /api/holds", "orders:read", 200),
  keyRow("invoices", "GET /api/invoices", "orders:read", 200),
  keyRow("returns", "GET /api/returns", "orders:read", 200),
  keyRow("refunds", "GET /api/refunds", "orders:read", 200),
  keyRow("payments", "GET /api/payments/refunds-due", "orders:read", 200),
  // orders:write
  keyRow("orders", "PATCH /api/orders/:id/status", "orders:write", 200),
  keyRow("shipments", "POST /api/orders/:id/shipments", "orders:write", 201),
  keyRow("returns", "POST /api/returns/:id/decision", "orders:write", 200),
  // customers:read
  keyRow("users", "GET /api/users", "customers:read", 200),
  keyRow("companies", "GET /api/companies", "customers:read", 200),
  // webhooks:manage
  keyRow("webhooks", "GET /api/webhook-endpoints", "webhooks:manage", 200),
  keyRow(
    "webhook deliveries",
    "GET /api/webhook-deliveries",
    "webhooks:manage",
    200,
    urlCall("/api/webhook-deliveries"),
  ),
  // No key: routes for people (customers', a signed-in user's own).
  noKeyRow("cart", "GET /api/cart"),
  noKeyRow("ordering", "POST /api/orders", async () => ({
    url: "/api/orders",
    payload: { ...matrixOrder, productId: randomUUID() },
  })),
  noKeyRow("checkout", "POST /api/checkout", async () => ({
    url: "/api/checkout",
    payload: { shipTo: TEST_SHIP_TO, expectedTotal: 1 },
  })),
  noKeyRow("own orders", "GET /api/orders"),
  noKeyRow("own invoices", "GET /api/orders/:id/invoice", async () => ({
    url: `/api/orders/${randomUUID()}/invoice`,
  })),
  noKeyRow("lists", "GET /api/lists"),
  noKeyRow("garage", "GET /api/garage"),
  noKeyRow("address book", "GET /api/user/addresses"),
  noKeyRow("profile", "GET /api/user"),
  noKeyRow("sessions", "GET /api/user/sessions"),
  noKeyRow("order emails", "GET /api/user/notifications"),
  noKeyRow("reviews (posting)", "POST /api/reviews", async () => ({
    url: "/api/reviews",
    payload: { ratings: 5, descreption: "Solid" },
  })),
  noKeyRow("quotes", "GET /api/quotes"),
  noKeyRow("approvals", "GET /api/approvals"),
  noKeyRow("my company", "GET /api/company"),
  noKeyRow("quick order", "POST /api/quick-order/add-to-cart", async () => ({
    url: "/api/quick-order/add-to-cart",
    payload: { lines: [{ number: "X", qty: 1 }] },
  })),
  noKeyRow("reorder", "POST /api/orders/:id/reorder", async () => ({
    url: `/api/orders/${randomUUID()}/reorder`,
  })),
  noKeyRow("payments (paying)", "POST /api/create-payment-intent", async () => ({
    url: "/api/create-payment-intent",
    payload: { orderId: randomUUID() },
  })),
  noKeyRow("returns (asking)", "POST /api/orders/:id/returns", async () => ({
    url: `/api/orders/${randomUUID()}/returns`,
    payload: { lines: [{ line: 1, qty: 1 }], reason: "damaged" },
  })),
  noKeyRow("company addresses", "GET /api/companies/:id/addresses", async () => ({
    url: `/api/companies/${trade.companyId}/addresses`,
  })),
  noKeyRow("sign-in", "POST /api/auth/sign-out", urlCall("/api/auth/sign-out")),
  // No key: admin routes without a scope (settings, people's roles, moderation, the keys).
  noKeyRow("API keys", "GET /api/api-keys"),
  noKeyRow("API keys", "POST /api/api-keys"),
  noKeyRow("audit log", "GET /api/audit"),
  noKeyRow("admin home", "GET /api/admin-home"),
  noKeyRow("admins", "PUT /api/user/admin/:email"),
  noKeyRow("users (removal)", "DELETE /api/users/:id"),
  noKeyRow("companies (changes)", "POST /api/companies"),
  noKeyRow("shipping zones", "GET /api/shipping-zones"),
  noKeyRow("tax rates", "GET /api/tax-rates"),
  noKeyRow("reviews (moderation)", "GET /api/reviews/pending"),
  noKeyRow("approval settings", "GET /api/approvals/settings"),
  noKeyRow("quotes (pricing)", "POST /api/quotes/:id/send", async () => ({
    url: `/api/quotes/${randomUUID()}/send`,
    payload: {},
  })),
  noKeyRow("restocking fee", "GET /api/returns/restocking-fee"),
  noKeyRow("return windows", "GET /api/returns/windows"),
  noKeyRow("order limits", "GET /api/holds/limits"),
  noKeyRow("low-stock email", "GET /api/admin-home/low-stock-email"),
  // No key: public routes without a scope (anyone calls them without one).
  noKeyRow("health", "GET /api/health"),
  noKeyRow("site config", "GET /api/config"),
  noKeyRow("contact", "GET /api/contact"),
  noKeyRow("reviews (public)", "GET /api/reviews"),
  noKeyRow("cart quote", "POST /api/cart/quote", async () => ({
    url: "/api/cart/quote",
    payload: { items: [] },
  })),
  noKeyRow("quick order (resolve)", "POST /api/quick-order/resolve", async () => ({
    url: "/api/quick-order/resolve",
    payload: { lines: [{ number: "X", qty: 1 }] },
  })),
];

describe("API keys: a key of each scope against a route of every family", () => {
  const keyOf = {} as Record<KeyKind, string>;
  beforeAll(async () => {
    const make = async (name: string, scopes: ApiScope[]) => {
      const res = await post(accounts.admin, "/api/api-keys", {
        name: `${name} ${process.pid}`,
        scopes,
        rateLimitPerMinute: 100_000,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<ApiKeyIssued>();
    };
    for (const scope of apiScopes) keyOf[scope] = (await make(`Matrix ${scope}`, [scope])).key;
    const revoked = await make("Matrix revoked", [...apiScopes]);
    await post(accounts.admin, `/api/api-keys/${revoked.apiKey.id}/revoke`);
    keyOf.revoked = revoked.key;
    const expired = await make("Matrix expired", [...apiScopes]);
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.apiKey.id));
    keyOf.expired = expired.key;
    keyOf.unknown = `pw_00000000_${"0".repeat(43)}`;
  });

  test("each scope opens at least one family here", () => {
    const opened = new Set(keyRows.map((r) => r.scope));
    expect(apiScopes.filter((s) => !opened.has(s))).toEqual([]);
  });

  test.each(keyRows.map((row) => [`${row.family}: ${row.route}`, row] as const))(
    "%s",
    async (_, row) => {
      const method = row.route.split(" ")[0] as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const kind of keyKinds) {
        const c = await row.call();
        const res = await t.app.inject({
          method,
          url: c.url,
          payload: c.payload as string | object | Buffer | undefined,
          headers: { ...c.headers, authorization: `Bearer ${keyOf[kind]}` },
        });
        got[kind] = res.statusCode;
        want[kind] =
          kind === "revoked" || kind === "expired" || kind === "unknown"
            ? 401
            : kind === row.scope
              ? row.status!
              : 403;
        if (res.statusCode >= 400) {
          expect(res.json(), `${row.route} with a ${kind} key`).toMatchObject({
            error: expect.any(String),
            message: expect.any(String),
          });
        }
      }
      expect(got).toEqual(want);
    },
  );
});
