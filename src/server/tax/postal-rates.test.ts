import { beforeAll, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { standardFreeOver, usZoneForm } from "../../../tests/support/shipping-forms";
import { POSTAL_PATTERN_MESSAGE, taxMessages } from "../../contract/tax";

// Tax rates by postal code through the API: the admin's routes (bad input refused, never a 500),
// the CSV import, and the rate a checkout charges for a Manhattan address.

const { t, call, admin } = storeForTests({ admin: "postal-admin@example.com" });
beforeAll(async () => {
  // Shipping free over $50: the orders below pay tax on their part alone.
  const zone = await call(admin, "POST", "/api/shipping-zones", usZoneForm(standardFreeOver(50)));
  expect(zone.statusCode, zone.body).toBe(201);
});

/** A tax rate's body in the state of Washington (US, WA). */
const inWashington = (rate: { postalCode?: string; name: string; rate: number }) => ({
  country: "US",
  region: "WA",
  ...rate,
});

test("an admin adds, lists and changes a rate for a postal code, a prefix or a range", async () => {
  const added = await call(
    admin,
    "POST",
    "/api/tax-rates",
    inWashington({ postalCode: "98101-98199", name: "Seattle sales tax", rate: 10.35 }),
  );
  expect(added.statusCode, added.body).toBe(201);
  expect(added.json()).toMatchObject({ region: "WA", postalCode: "98101-98199", rate: 10.35 });
  // The same state without a postal code is another place.
  const state = await call(
    admin,
    "POST",
    "/api/tax-rates",
    inWashington({ name: "Washington sales tax", rate: 6.5 }),
  );
  expect(state.statusCode).toBe(201);
  expect(state.json().postalCode).toBe("");
  const again = await call(
    admin,
    "POST",
    "/api/tax-rates",
    inWashington({ postalCode: "98101-98199", name: "Twice", rate: 1 }),
  );
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(taxMessages.duplicate);
  const changed = await call(
    admin,
    "PUT",
    `/api/tax-rates/${added.json().id}`,
    inWashington({ postalCode: "981*", name: "Seattle sales tax", rate: 10.35 }),
  );
  expect(changed.statusCode).toBe(200);
  expect(changed.json().postalCode).toBe("981*");
  const list = (await call(admin, "GET", "/api/tax-rates")).json() as { postalCode: string }[];
  expect(list.map((r) => r.postalCode)).toEqual(expect.arrayContaining(["", "981*"]));
});

test("bad postal codes and bad CSV files are refused with what is wrong, never a 500", async () => {
  for (const postalCode of ["98199-98101", "*", "98 101 / 2", "x".repeat(30)]) {
    const res = await call(admin, "POST", "/api/tax-rates", {
      country: "US",
      postalCode,
      name: "Bad",
      rate: 5,
    });
    expect(res.statusCode, postalCode).toBe(400);
    expect(res.body).toMatch(
      new RegExp(
        `${POSTAL_PATTERN_MESSAGE.replace(/[()*]/g, "\\$&")}|Must be 23 characters or shorter`,
      ),
    );
  }
  for (const payload of [{}, { csv: "" }, { csv: 5 }, { csv: "a\u0000b" }, { csv: "x", more: 1 }]) {
    const res = await call(admin, "POST", "/api/tax-rates/import", payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
  }
  const before = (await call(admin, "GET", "/api/tax-rates")).json().length;
  const bad = await call(admin, "POST", "/api/tax-rates/import", {
    csv: "country,region,postal_code,name,rate\nUS,OR,97201,Portland,3\nUS,OR,97299-97201,Bad,3\n",
  });
  expect(bad.statusCode).toBe(422);
  expect(bad.json().message).toBe(`Line 3: postalCode: ${POSTAL_PATTERN_MESSAGE}`);
  // Nothing of the file was written, its good row included.
  expect((await call(admin, "GET", "/api/tax-rates")).json()).toHaveLength(before);
  const garbage = await call(admin, "POST", "/api/tax-rates/import", { csv: '"unclosed\n' });
  expect(garbage.statusCode).toBe(422);
});

test("a CSV import adds new places and replaces the rates of places that had one", async () => {
  const csv = (rate: number) =>
    "country,region,postal_code,name,rate,applies_to_shipping\n" +
    `US,OR,97201,Portland sales tax,${rate},no\n` +
    `US,OR,972*,Portland area tax,${rate - 1},yes\n`;
  const first = await call(admin, "POST", "/api/tax-rates/import", { csv: csv(3) });
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json()).toEqual({ added: 2, updated: 0 });
  const second = await call(admin, "POST", "/api/tax-rates/import", { csv: csv(4) });
  expect(second.json()).toEqual({ added: 0, updated: 2 });
  const rates = (await call(admin, "GET", "/api/tax-rates")).json() as {
    postalCode: string;
    rate: number;
    appliesToShipping: boolean;
  }[];
  expect(rates.find((r) => r.postalCode === "97201")).toMatchObject({
    rate: 4,
    appliesToShipping: false,
  });
});

test("a checkout to Manhattan (10001) pays the postal code's 8.875 %, Albany (12207) the state's 4 %", async () => {
  const imported = await call(admin, "POST", "/api/tax-rates/import", {
    csv:
      "country,region,postal_code,name,rate\n" +
      "US,NY,,New York sales tax,4\n" +
      "US,NY,10001-10282,New York City sales tax,8.875\n",
  });
  expect(imported.statusCode, imported.body).toBe(200);
  const part = await insertProduct(t.database.db, { priceCents: 10_000, minimumOrder: 1 });
  const checkout = async (city: string, postalCode: string) => {
    const me = await signUp(t.app);
    const address = await call(me, "POST", "/api/user/addresses", {
      name: "Sam Buyer",
      line1: "1 Main Street",
      city,
      region: "NY",
      postalCode,
      country: "US",
      phone: "2125550100",
    });
    expect(address.statusCode, address.body).toBe(201);
    await call(me, "PUT", `/api/cart/items/${part.id}`, { qty: 1 });
    const quote = await call(me, "POST", "/api/cart/quote", { addressId: address.json().id });
    expect(quote.statusCode, quote.body).toBe(200);
    const placed = await call(me, "POST", "/api/checkout", {
      addressId: address.json().id,
      expectedTotal: quote.json().total,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    return placed.json().order as { taxName: string; taxRate: number; tax: number };
  };
  expect(await checkout("New York", "10001")).toMatchObject({
    taxName: "New York City sales tax",
    taxRate: 8.875,
    tax: 8.88,
  });
  expect(await checkout("Albany", "12207")).toMatchObject({
    taxName: "New York sales tax",
    taxRate: 4,
    tax: 4,
  });
});
