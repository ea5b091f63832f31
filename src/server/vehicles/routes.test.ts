import { count } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { vehicleMessages } from "../../contract/vehicles";
import { baseVehicles } from "./tables";
import { productFitments } from "../catalog/tables";
import { seedDemoData, seedDemoFitment } from "../demo/seed";
import { demoFitment, demoVehicles } from "./demo-vehicles";
import { demoProducts } from "../catalog/demo-products";

// The demo catalog and vehicles, through the API as the selector and the pages use it.
let customer: TestAccount;
let golf: { year: number; make: number; model: number };
let tsi: number;
let tdi: number;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });
const json = async <T>(url: string): Promise<T> => {
  const res = await get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};
const qs = (o: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();
type Option = { id: number; name: string };
interface Item {
  _id: string;
  partNumber: string;
  fit?: { fits: boolean; details: { position: string | null; note: string | null }[] };
}

const { t, call, admin } = storeForTests({ admin: "fitment-admin@example.com" });
beforeAll(async () => {
  expect(await seedDemoData(t.database.db)).toBe(true);
  expect(await seedDemoFitment(t.database.db)).toBeGreaterThan(0);
  customer = await signUp(t.app);
  const makes = await json<Option[]>("/api/vehicles/makes?year=2016");
  const make = makes.find((m) => m.name === "Volkswagen")!.id;
  const models = await json<Option[]>(`/api/vehicles/models?year=2016&make=${make}`);
  golf = { year: 2016, make, model: models.find((m) => m.name === "Golf")!.id };
  const engines = await json<Option[]>(`/api/vehicles/engines?${qs(golf)}`);
  tsi = engines.find((e) => e.name === "1.4 TSI")!.id;
  tdi = engines.find((e) => e.name === "2.0 TDI")!.id;
});

/** The demo part numbers written to fit a model in a year (with this engine, or any). */
function expectedFor(make: string, model: string, year: number, engine?: string) {
  return Object.entries(demoFitment)
    .filter(([, apps]) =>
      apps.some(
        (a) =>
          a.make === make &&
          a.model === model &&
          a.years[0] <= year &&
          year <= a.years[1] &&
          (engine === undefined || a.engine === undefined || a.engine === engine),
      ),
    )
    .map(([pn]) => pn)
    .sort();
}

test("the demo set: about ten makes, 3–5 models each, 10+ years, 2–3 engines a model", async () => {
  const makes = Object.entries(demoVehicles);
  expect(makes.length).toBeGreaterThanOrEqual(10);
  for (const [, models] of makes) {
    expect(models.length).toBeGreaterThanOrEqual(3);
    expect(models.length).toBeLessThanOrEqual(5);
    for (const m of models) {
      expect(m.years[1] - m.years[0] + 1).toBeGreaterThanOrEqual(10);
      expect(m.engines.length).toBeGreaterThanOrEqual(2);
      expect(m.engines.length).toBeLessThanOrEqual(3);
    }
  }
  // Every demo product has fitment and 2–5 cross-references.
  for (const p of demoProducts) {
    expect(demoFitment[p.partNumber]?.length, p.partNumber).toBeGreaterThan(0);
    expect(p.crossReferences.length).toBeGreaterThanOrEqual(2);
    expect(p.crossReferences.length).toBeLessThanOrEqual(5);
  }
  const years = await json<number[]>("/api/vehicles/years");
  expect(years[0]).toBe(2022);
  expect(years.at(-1)).toBe(2010);
});

test("seeding again adds nothing", async () => {
  const before = await t.database.db.select({ n: count() }).from(productFitments);
  const vehiclesBefore = await t.database.db.select({ n: count() }).from(baseVehicles);
  expect(await seedDemoFitment(t.database.db)).toBe(0);
  expect(await t.database.db.select({ n: count() }).from(productFitments)).toEqual(before);
  expect(await t.database.db.select({ n: count() }).from(baseVehicles)).toEqual(vehiclesBefore);
});

describe("the product list filtered by a vehicle", () => {
  const list = async (query: Record<string, unknown>) => {
    const res = await get(`/api/products?${qs({ limit: 100, ...query })}`);
    expect(res.statusCode, res.body).toBe(200);
    return { items: res.json() as Item[], total: Number(res.headers["x-total-count"]) };
  };

  test("shows only parts that fit, each saying how", async () => {
    const { items, total } = await list({ ...golf, engine: tsi });
    expect(items.map((i) => i.partNumber).sort()).toEqual(
      expectedFor("Volkswagen", "Golf", 2016, "1.4 TSI"),
    );
    expect(total).toBe(items.length);
    expect(items.every((i) => i.fit?.fits)).toBe(true);
    const disc = items.find((i) => i.partNumber === "PW-BK-3001")!;
    expect(disc.fit!.details[0]!.position).toBe("Front");
  });

  test("a different engine, or none, gives a different answer (the cache keys on it)", async () => {
    const withTsi = await list({ ...golf, engine: tsi });
    const withTdi = await list({ ...golf, engine: tdi });
    const anyEngine = await list(golf);
    const everything = await list({});
    expect(withTdi.items.map((i) => i.partNumber).sort()).toEqual(
      expectedFor("Volkswagen", "Golf", 2016, "2.0 TDI"),
    );
    expect(withTdi.items.map((i) => i.partNumber)).not.toEqual(
      withTsi.items.map((i) => i.partNumber),
    );
    expect(anyEngine.items.map((i) => i.partNumber).sort()).toEqual(
      expectedFor("Volkswagen", "Golf", 2016),
    );
    expect(everything.total).toBe(demoProducts.length);
    expect(everything.items.some((i) => i.fit)).toBe(false);
    // Asked again in another field order: the same cached answer.
    const again = await get(
      `/api/products?engine=${tdi}&model=${golf.model}&limit=100&make=${golf.make}&year=2016`,
    );
    expect((again.json() as Item[]).map((i) => i.partNumber)).toEqual(
      withTdi.items.map((i) => i.partNumber),
    );
  });

  test("combines with the search and the category filter", async () => {
    const { items } = await list({ ...golf, category: "Filters" });
    expect(items.map((i) => i.partNumber).sort()).toEqual(["PW-FL-1104", "PW-FL-1210"]);
    const { items: searched } = await list({ ...golf, q: "brake pads" });
    expect(searched.map((i) => i.partNumber)).toEqual(["PW-BK-3001"]);
    const { items: none } = await list({
      year: 2016,
      make: golf.make,
      model: golf.model,
      q: "headlight",
    });
    expect(none).toEqual([]);
  });
});

describe("bad input is a clear 4xx", () => {
  test.each([
    ["an unknown make", () => `/api/products?${qs({ ...golf, make: 999999 })}`],
    ["a year we have no vehicle for", () => `/api/products?${qs({ ...golf, year: 1990 })}`],
    ["an impossible year", () => `/api/products?${qs({ ...golf, year: 1800 })}`],
    ["a year that is not a number", () => `/api/products?${qs({ ...golf, year: "twenty" })}`],
    ["a year without make and model", () => "/api/products?year=2016"],
    ["an engine the model never had", () => `/api/products?${qs({ ...golf, engine: 999999 })}`],
    ["a huge id", () => `/api/products?${qs({ ...golf, model: "99999999999999999999" })}`],
    ["an unknown model's engines", () => `/api/vehicles/engines?${qs({ ...golf, model: 999999 })}`],
    ["a make list without a year", () => "/api/vehicles/makes"],
    ["a VIN too long", () => "/api/vehicles/vin/WVWZZZAU1GW0123456789"],
    ["a VIN too short", () => "/api/vehicles/vin/WVWZZZAU1GW"],
    ["a VIN with O", () => "/api/vehicles/vin/WVWZZZAU1GWO12345"],
    ["a North-American VIN with a wrong check digit", () => "/api/vehicles/vin/1M8GDM9A5KP042788"],
    ["a VIN with a NUL byte", () => "/api/vehicles/vin/WVWZZZAU1GW01234%00"],
    [
      "a product's fitment for an unknown vehicle",
      () =>
        `/api/products/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}/fitment?${qs({ ...golf, year: 1990 })}`,
    ],
  ])("%s", async (_, url) => {
    const res = await get(url());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  test("an unknown vehicle says so in words", async () => {
    const res = await get(`/api/products?${qs({ ...golf, make: 999999 })}`);
    expect(res.json().message).toBe(vehicleMessages.unknownVehicle);
  });
});

test("the VIN check decodes what the VIN tells and names our make", async () => {
  const r = await json<{ year: number; make: Option; manufacturer: string }>(
    "/api/vehicles/vin/wvwzzzau1gw012345",
  );
  expect(r).toMatchObject({ year: 2016, manufacturer: "Volkswagen", make: { id: golf.make } });
  const message = (await get("/api/vehicles/vin/1M8GDM9A5KP042788")).json().message;
  expect(message).toBe("The check digit (9th character) is 5 but should be X: the VIN is mistyped");
});

test("a European VIN without a check digit is decoded, with what could not be checked", async () => {
  const res = await get("/api/vehicles/vin/WVWZZZAUZGW000001");
  expect(res.statusCode, res.body).toBe(200);
  const r = res.json<{ notes: string[] }>();
  expect(r).toMatchObject({
    year: 2016,
    manufacturer: "Volkswagen",
    region: "Europe",
    make: { id: golf.make },
  });
  expect(r.notes).toContain(
    "The 9th character Z is not checked: outside North America a VIN need not carry a check digit, so a mistyped one cannot be caught",
  );
});

test("a product page's vehicles and whether the chosen one fits", async () => {
  const items = await json<Item[]>(`/api/products?limit=100`);
  const disc = items.find((i) => i.partNumber === "PW-BK-3001")!;
  const plain = await json<{
    applications: { make: string; model: string; rows: { years: string }[] }[];
  }>(`/api/products/${disc._id}/fitment`);
  expect(plain.applications.map((a) => `${a.make} ${a.model}`)).toEqual([
    "Audi A3",
    "Skoda Octavia",
    "Toyota Corolla",
    "Volkswagen Golf",
  ]);
  expect(plain.applications.find((a) => a.model === "Golf")!.rows[0]!.years).toBe("2013–2020");
  const fits = await json<{ fit: { fits: boolean }; vehicle: { label: string } }>(
    `/api/products/${disc._id}/fitment?${qs({ ...golf, engine: tsi })}`,
  );
  expect(fits.vehicle.label).toBe("2016 Volkswagen Golf 1.4 TSI");
  expect(fits.fit.fits).toBe(true);
  const light = items.find((i) => i.partNumber === "PW-LT-9302")!;
  const not = await json<{ fit: { fits: boolean; details: unknown[] } }>(
    `/api/products/${light._id}/fitment?${qs(golf)}`,
  );
  expect(not.fit).toEqual({ fits: false, details: [] });
  expect(
    (await get(`/api/products/${"1".repeat(8)}-1111-4111-8111-${"1".repeat(12)}/fitment`))
      .statusCode,
  ).toBe(404);
});

describe("My garage", () => {
  test("a customer saves, lists and removes vehicles", async () => {
    const headers = { cookie: customer.cookie };
    const add = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/garage", headers, payload });
    const saved = await add({ ...golf, engine: tsi });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual([
      expect.objectContaining({ label: "2016 Volkswagen Golf 1.4 TSI", year: 2016 }),
    ]);
    // Saving it again changes nothing; the same car without an engine is another entry.
    expect((await add({ ...golf, engine: tsi })).json()).toHaveLength(1);
    expect((await add(golf)).json()).toHaveLength(2);
    const [first] = (await get("/api/garage", headers)).json() as { id: string }[];
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/garage/${first!.id}`,
      headers,
    });
    expect(removed.json().map((v: { label: string }) => v.label)).toEqual(["2016 Volkswagen Golf"]);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/garage/${first!.id}`, headers }))
        .statusCode,
    ).toBe(404);
  });

  test("unknown vehicles and bodies with extra fields are refused; admins have no garage", async () => {
    const headers = { cookie: customer.cookie };
    const post = (payload: unknown, h = headers) =>
      t.app.inject({ method: "POST", url: "/api/garage", headers: h, payload: payload as object });
    expect((await post({ ...golf, model: 999999 })).statusCode).toBe(400);
    expect((await post({ ...golf, year: "2016" })).statusCode).toBe(400);
    expect((await post({ ...golf, userId: "someone" })).statusCode).toBe(400);
    expect((await post(golf, { cookie: admin.cookie })).statusCode).toBe(403);
  });

  test("holds at most ten vehicles", async () => {
    const other = await signUp(t.app);
    const headers = { cookie: other.cookie };
    const years = (await json<number[]>("/api/vehicles/years")).filter(
      (y) => y >= 2012 && y <= 2021,
    );
    let last = 0;
    for (const year of years.slice(0, 11)) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/garage",
        headers,
        payload: { ...golf, year },
      });
      last = res.statusCode;
      if (res.statusCode !== 200) {
        expect(res.json().message).toBe(vehicleMessages.garageFull);
      }
    }
    expect(years.length).toBe(10);
    expect(last).toBe(200);
    const extra = await t.app.inject({
      method: "POST",
      url: "/api/garage",
      headers,
      payload: { ...golf, year: 2013, engine: tsi },
    });
    expect(extra.statusCode).toBe(409);
    expect(extra.json().message).toBe(vehicleMessages.garageFull);
    expect((await get("/api/garage", headers)).json()).toHaveLength(10);
  });
});

describe("an admin edits a product's fitment as year ranges", () => {
  const golfModel = () => ({ make: golf.make, model: golf.model });
  const productId = async () =>
    (await json<Item[]>("/api/products?limit=100&q=PW-LT-9302"))[0]!._id;
  const put = async (id: string, rows: unknown[], who = admin) =>
    call(who, "PUT", `/api/products/${id}/fitment-rows`, { rows });

  test("a range is stored per year, read back as the range, and the lists show it", async () => {
    const id = await productId();
    const before = await get(`/api/products/${id}/fitment-rows`, { cookie: admin.cookie });
    expect(before.statusCode).toBe(200);
    expect(before.json().rows.length).toBeGreaterThan(0);
    const res = await put(id, [
      { ...golfModel(), yearFrom: 2015, yearTo: 2017, engine: tsi, position: "Front", quantity: 2 },
      { ...golfModel(), yearFrom: 2019, yearTo: 2019, note: "facelift" },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .rows.map((r: { yearFrom: number; yearTo: number; engine: Option | null }) => [
          r.yearFrom,
          r.yearTo,
          r.engine?.name ?? null,
        ]),
    ).toEqual([
      [2015, 2017, "1.4 TSI"],
      [2019, 2019, null],
    ]);
    const rows = await t.database.db.select({ n: count() }).from(productFitments);
    expect(rows[0]!.n).toBeGreaterThan(0);
    const fitting = await json<Item[]>(`/api/products?${qs({ limit: 100, ...golf, engine: tsi })}`);
    expect(fitting.map((i) => i.partNumber)).toContain("PW-LT-9302");
    const other = await json<Item[]>(`/api/products?${qs({ limit: 100, ...golf, engine: tdi })}`);
    expect(other.map((i) => i.partNumber)).not.toContain("PW-LT-9302");
    const page = await json<{ applications: { model: string; rows: { years: string }[] }[] }>(
      `/api/products/${id}/fitment`,
    );
    expect(page.applications).toEqual([
      expect.objectContaining({
        model: "Golf",
        rows: expect.arrayContaining([expect.objectContaining({ years: "2015–2017" })]),
      }),
    ]);
  });

  test("a year the model was not built in, or an engine it lacked, changes nothing", async () => {
    const id = await productId();
    const before = (await get(`/api/products/${id}/fitment-rows`, { cookie: admin.cookie })).json();
    const noYear = await put(id, [
      { ...golfModel(), yearFrom: 2016, yearTo: 2016 },
      { ...golfModel(), yearFrom: 2005, yearTo: 2013 },
    ]);
    expect(noYear.statusCode).toBe(400);
    expect(noYear.json().message).toBe(
      "Row 2: we do not list this make and model for every year from 2005 to 2013",
    );
    const bmw = await json<Option[]>("/api/vehicles/makes?year=2016");
    const wrongMake = await put(id, [
      { ...golfModel(), make: bmw.find((m) => m.name === "BMW")!.id, yearFrom: 2016, yearTo: 2016 },
    ]);
    expect(wrongMake.statusCode).toBe(400);
    const noEngine = await put(id, [
      { ...golfModel(), yearFrom: 2016, yearTo: 2016, engine: 999999 },
    ]);
    expect(noEngine.json().message).toBe(
      "Row 1: this engine is not listed for every year from 2016 to 2016",
    );
    expect((await put(id, [{ ...golfModel(), yearFrom: 2017, yearTo: 2016 }])).statusCode).toBe(
      400,
    );
    expect(
      (await put(id, [{ ...golfModel(), yearFrom: 2016, yearTo: 2016, quantity: 0 }])).statusCode,
    ).toBe(400);
    expect(
      (await put(id, [{ ...golfModel(), yearFrom: 2016, yearTo: 2016, note: "a\u0000b" }]))
        .statusCode,
    ).toBe(400);
    expect(
      (await put(id, [{ ...golfModel(), yearFrom: 2016, yearTo: 2016 }], customer)).statusCode,
    ).toBe(403);
    expect(
      (await get(`/api/products/${id}/fitment-rows`, { cookie: admin.cookie })).json(),
    ).toEqual(before);
    expect((await put(`${"2".repeat(8)}-2222-4222-8222-${"2".repeat(12)}`, [])).statusCode).toBe(
      404,
    );
  });
});
