import { beforeAll, describe, expect, test } from "vitest";
import { signUpVerified, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { addGermanVat } from "../../../tests/support/markets";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { partSlug } from "../../contract/paths";
import type { ProductListItem } from "../../contract/products";
import { cartVatNote } from "../../contract/tax";
import { GARAGE_GROUP_ID } from "./tables";

/**
 * What a buyer in a VAT-inclusive market reads (docs/tax.md "Prices with VAT included", issue 54
 * item 6), with MARKET_CHOICE on: the catalog's answers in Europe for a consumer carry
 * `taxIncluded` (the rate and "incl. 19 % VAT") beside their gross prices; in the default market,
 * and for a trade buyer (net prices), they carry none. The cart says `pricesIncludeTax` with its rate for a consumer (the words of
 * its lines: `cartVatNote`), and neither for a trade buyer, whose prices are net.
 */
describe("the words beside a consumer's gross prices", () => {
  let partId: string;
  let slug: string;
  const inEurope = { cookie: "market=DE" };
  const inUs = { cookie: "market=US" };
  const as = (who: TestAccount, market: string) => ({ cookie: `${who.cookie}; market=${market}` });
  const itemOf = async (who: { cookie: string }) =>
    (await call(who, "GET", "/api/products?limit=50"))
      .json<ProductListItem[]>()
      .find((p) => p._id === partId);

  const { t, call, admin } = storeForTests({
    admin: "vat-words-admin@example.com",
    shipsToTestAddress: true,
    env: { MARKET_CHOICE: "true" },
  });
  beforeAll(async () => {
    const rate = await addGermanVat(t.app, admin);
    expect(rate.statusCode, rate.body).toBe(201);
    const part = await insertProduct(t.database.db, { priceCents: 1250, minimumOrder: 1 });
    partId = part.id;
    slug = partSlug(part.partNumber, part.name).toLowerCase();
  });

  const included = { rateMillipercent: 19000, note: "incl. 19 % VAT" };

  test("a visitor in Europe: the list, the product and the part's page say the VAT included", async () => {
    // $12.50 at 0.92 is €11.50 net, €13.69 with 19 %.
    expect(await itemOf(inEurope)).toMatchObject({
      currency: "EUR",
      price: 13.69,
      taxIncluded: included,
    });
    const product = await call(inEurope, "GET", `/api/products/${partId}`);
    expect(product.json()).toMatchObject({ price: 13.69, taxIncluded: included });
    const page = await call(inEurope, "GET", `/api/parts/${slug}`);
    expect(page.json()).toMatchObject({ currency: "EUR", price: 13.69, taxIncluded: included });
  });

  test("a visitor in the default market: net prices, no words", async () => {
    const item = await itemOf(inUs);
    expect(item).toMatchObject({ price: 12.5 });
    expect(item).not.toHaveProperty("taxIncluded");
    const product = (await call(inUs, "GET", `/api/products/${partId}`)).json<object>();
    expect(product).not.toHaveProperty("taxIncluded");
    const page = (await call(inUs, "GET", `/api/parts/${slug}`)).json<object>();
    expect(page).not.toHaveProperty("taxIncluded");
  });

  test("a consumer's catalog and cart in Europe say their prices include VAT; a trade buyer's do not", async () => {
    const consumer = await signUpVerified(t);
    expect(await itemOf(as(consumer, "DE"))).toMatchObject({ taxIncluded: included });
    const put = await call(as(consumer, "DE"), "PUT", `/api/cart/items/${partId}`, { qty: 1 });
    expect(put.statusCode, put.body).toBe(200);
    const cart = (await call(as(consumer, "DE"), "GET", "/api/cart")).json();
    expect(cart).toMatchObject({ currency: "EUR", pricesIncludeTax: true, taxRate: 19 });
    expect(cart.lines).toMatchObject([{ unitPrice: 13.69 }]);
    expect(cartVatNote(cart)).toBe("incl. 19 % VAT");

    const company = await createCompany(t.app, admin);
    const buyer = await joinCompany(t.app, admin, company.id, "buyer");
    // A trade buyer's catalog in Europe: the net price, no words.
    const tradeItem = await itemOf(as(buyer, "DE"));
    expect(tradeItem).toMatchObject({ currency: "EUR", price: 11.5 });
    expect(tradeItem).not.toHaveProperty("taxIncluded");
    const tradeProduct = await call(as(buyer, "DE"), "GET", `/api/products/${partId}`);
    expect(tradeProduct.json()).toMatchObject({ currency: "EUR", price: 11.5 });
    expect(tradeProduct.json()).not.toHaveProperty("taxIncluded");
    const bought = await call(as(buyer, "DE"), "PUT", `/api/cart/items/${partId}`, { qty: 1 });
    expect(bought.statusCode, bought.body).toBe(200);
    const trade = (await call(as(buyer, "DE"), "GET", "/api/cart")).json();
    expect(trade).toMatchObject({ currency: "EUR", lines: [{ unitPrice: 11.5 }] });
    expect(trade).not.toHaveProperty("pricesIncludeTax");
    expect(cartVatNote(trade)).toBeNull();
  });

  test("a consumer's own group price on a list page is gross, as the card's; a trade buyer's list price is net", async () => {
    const brand = `VatWords${process.pid}`;
    const rule = await call(admin, "POST", `/api/customer-groups/${GARAGE_GROUP_ID}/rules`, {
      percent: 20,
      scope: "brand",
      brand,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const part = await insertProduct(t.database.db, { priceCents: 1250, minimumOrder: 1, brand });
    const consumer = await signUpVerified(t);
    const moved = await call(admin, "PUT", `/api/users/${consumer.id}/customer-group`, {
      customerGroupId: GARAGE_GROUP_ID,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const listed = async (who: { cookie: string }) =>
      (await call(who, "GET", "/api/products?limit=50"))
        .json<ProductListItem[]>()
        .find((p) => p._id === part.id);
    // $12.50 less 20 % is $10.00, €9.20 at 0.92, €10.95 with 19 %: beside the card's €13.69, and
    // the same as the product's price and the cart say.
    expect(await listed(as(consumer, "DE"))).toMatchObject({
      price: 13.69,
      yourPrice: 10.95,
      taxIncluded: included,
    });
    const price = await call(as(consumer, "DE"), "GET", `/api/products/${part.id}/price`);
    expect(price.json()).toMatchObject({ currency: "EUR", yourPrice: 10.95 });

    // A trade buyer's own price from their company's list: $10.00 is €9.20, net as their card.
    const list = await createPriceList(t.app, admin, [{ productId: part.id, unitPrice: 10 }]);
    const company = await createCompany(t.app, admin, { priceListId: list.id });
    const buyer = await joinCompany(t.app, admin, company.id, "buyer");
    const tradeItem = await listed(as(buyer, "DE"));
    expect(tradeItem).toMatchObject({ price: 11.5, yourPrice: 9.2 });
    expect(tradeItem).not.toHaveProperty("taxIncluded");
  });
});
