import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { MAX_ADDRESSES } from "../../contract/addresses";

const { t, call, admin } = storeForTests({ admin: "addresses-admin@example.com" });

const austin = {
  name: "Jane Doe",
  company: "Doe Garage",
  line1: "100 Congress Ave",
  line2: "Suite 5",
  city: "Austin",
  region: "tx",
  postalCode: "78701",
  country: "us",
  phone: "(512) 555-0100",
};
const berlin = {
  name: "Max Muster",
  line1: "Unter den Linden 1",
  city: "Berlin",
  postalCode: "10117",
  country: "DE",
  phone: "+49 30 1234567",
};

test("the first address is the default; its fields are normalised and formatted", async () => {
  const me = await signUp(t.app);
  const res = await call(me, "POST", "/api/user/addresses", austin);
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({
    region: "TX",
    country: "US",
    phone: "5125550100",
    isDefault: true,
    formatted: "Jane Doe, Doe Garage, 100 Congress Ave, Suite 5, Austin, TX 78701, United States",
  });
  const second = (await call(me, "POST", "/api/user/addresses", berlin)).json();
  expect(second).toMatchObject({
    isDefault: false,
    company: "",
    formatted: "Max Muster, Unter den Linden 1, 10117 Berlin, Germany",
  });
  const book = (await call(me, "GET", "/api/user/addresses")).json();
  expect(book.map((a: { city: string }) => a.city)).toEqual(["Austin", "Berlin"]);
});

test("one default: making another the default moves it; removing it passes it on", async () => {
  const me = await signUp(t.app);
  const a = (await call(me, "POST", "/api/user/addresses", austin)).json();
  const b = (await call(me, "POST", "/api/user/addresses", { ...berlin, isDefault: true })).json();
  expect(b.isDefault).toBe(true);
  let book = (await call(me, "GET", "/api/user/addresses")).json();
  expect(book.map((x: { id: string; isDefault: boolean }) => [x.id, x.isDefault])).toEqual([
    [b.id, true],
    [a.id, false],
  ]);
  // Switching the default off is not how it moves: it stays the default.
  const kept = await call(me, "PATCH", `/api/user/addresses/${b.id}`, { isDefault: false });
  expect(kept.json().isDefault).toBe(true);
  const moved = await call(me, "PATCH", `/api/user/addresses/${a.id}`, { isDefault: true });
  expect(moved.json().isDefault).toBe(true);
  expect((await call(me, "DELETE", `/api/user/addresses/${a.id}`)).statusCode).toBe(204);
  book = (await call(me, "GET", "/api/user/addresses")).json();
  expect(book).toHaveLength(1);
  expect(book[0]).toMatchObject({ id: b.id, isDefault: true });
});

test("postal codes are checked per country with a clear message, and normalised", async () => {
  const me = await signUp(t.app);
  const cases: [string, string, string | null, string?][] = [
    ["US", "7870", "Enter a United States postal code, like 94103 or 94103-1234"],
    ["US", "78701-1234", null, "78701-1234"],
    ["CA", "k1a0b1", null, "K1A 0B1"],
    ["CA", "12345", "Enter a Canada postal code, like K1A 0B1"],
    ["GB", "sw1a1aa", null, "SW1A 1AA"],
    ["GB", "12345", "Enter a United Kingdom postal code, like SW1A 1AA"],
    ["DE", "1011", "Enter a Germany postal code, like 10115"],
    ["FR", "75001", null, "75001"],
    ["NL", "1012ab", null, "1012 AB"],
    ["NL", "AB1012", "Enter a Netherlands postal code, like 1012 AB"],
    ["JP", "100-0001", null, "100-0001"],
    ["JP", "", "Postal code is Required"],
  ];
  for (const [country, postalCode, message, stored] of cases) {
    const region = country === "US" ? "TX" : country === "CA" ? "ON" : "";
    const res = await call(me, "POST", "/api/user/addresses", {
      ...berlin,
      country,
      region,
      postalCode,
    });
    if (message) {
      expect(res.statusCode, `${country} ${postalCode}`).toBe(400);
      expect(res.json().fields.postalCode).toBe(message);
    } else {
      expect(res.statusCode, `${country} ${postalCode}`).toBe(201);
      expect(res.json().postalCode).toBe(stored);
      await call(me, "DELETE", `/api/user/addresses/${res.json().id}`);
    }
  }
});

test("bad fields are refused with the field's message, never a 500", async () => {
  const me = await signUp(t.app);
  const refused = async (body: object) => {
    const res = await call(me, "POST", "/api/user/addresses", { ...austin, ...body });
    expect(res.statusCode).toBe(400);
    return res.json().fields;
  };
  expect(await refused({ region: "" })).toMatchObject({ region: "Choose a state" });
  expect(await refused({ region: "Texas" })).toMatchObject({
    region: "Enter a US state as its two-letter code, like CA",
  });
  expect(await refused({ country: "XX" })).toMatchObject({ country: "Choose a country" });
  expect(await refused({ name: " " })).toMatchObject({ name: "Name is Required" });
  expect(await refused({ line1: "" })).toMatchObject({ line1: "Address line 1 is Required" });
  expect(await refused({ city: "" })).toMatchObject({ city: "City is Required" });
  expect(await refused({ phone: "abc" })).toMatchObject({ phone: expect.stringMatching(/phone/i) });
  expect(await refused({ line1: "x".repeat(101) })).toMatchObject({
    line1: "Must be 100 characters or shorter",
  });
  expect(await refused({ name: "a\u0000b" })).toMatchObject({
    name: "Must not contain control characters",
  });
  const a = (await call(me, "POST", "/api/user/addresses", austin)).json();
  // A change is checked on the whole address: Germany's postal codes have five digits.
  const patched = await call(me, "PATCH", `/api/user/addresses/${a.id}`, {
    country: "DE",
    region: "",
    postalCode: "1234",
  });
  expect(patched.statusCode).toBe(400);
  expect(patched.json().fields).toEqual({ postalCode: "Enter a Germany postal code, like 10115" });
  const fixed = await call(me, "PATCH", `/api/user/addresses/${a.id}`, {
    country: "DE",
    region: "",
    postalCode: "10117",
    city: "Berlin",
  });
  expect(fixed.statusCode).toBe(200);
  expect(fixed.json().formatted).toContain("10117 Berlin, Germany");
});

test("someone else's address is not found, and admins have no address book", async () => {
  const owner = await signUp(t.app);
  const other = await signUp(t.app);
  const a = (await call(owner, "POST", "/api/user/addresses", austin)).json();
  expect(
    (await call(other, "PATCH", `/api/user/addresses/${a.id}`, { city: "X" })).statusCode,
  ).toBe(404);
  expect((await call(other, "DELETE", `/api/user/addresses/${a.id}`)).statusCode).toBe(404);
  expect((await call(other, "GET", "/api/user/addresses")).json()).toEqual([]);
  expect((await call(admin, "GET", "/api/user/addresses")).statusCode).toBe(403);
  expect((await call(undefined, "GET", "/api/user/addresses")).statusCode).toBe(401);
});

test(`an address book holds at most ${MAX_ADDRESSES} addresses`, async () => {
  const me = await signUp(t.app);
  for (let i = 0; i < MAX_ADDRESSES; i++) {
    expect((await call(me, "POST", "/api/user/addresses", austin)).statusCode).toBe(201);
  }
  const res = await call(me, "POST", "/api/user/addresses", austin);
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(
    `An address book holds at most ${MAX_ADDRESSES} addresses; remove one first`,
  );
});

test("two defaults at once cannot happen: concurrent adds of a default leave one", async () => {
  const me = await signUp(t.app);
  await Promise.all(
    Array.from({ length: 6 }, () =>
      call(me, "POST", "/api/user/addresses", { ...austin, isDefault: true }),
    ),
  );
  const book = (await call(me, "GET", "/api/user/addresses")).json();
  expect(book).toHaveLength(6);
  expect(book.filter((a: { isDefault: boolean }) => a.isDefault)).toHaveLength(1);
});
