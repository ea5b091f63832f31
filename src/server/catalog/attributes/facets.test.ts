import { beforeAll, describe, expect, test } from "vitest";
import { attributeMessages } from "../../../contract/attributes";
import { facetMessages, MAX_ATTRIBUTE_FILTERS, type Facets } from "../../../contract/facets";
import { insertProduct, insertVehicle } from "../../../../tests/support/factories";
import { productFitments } from "../tables";
import { attributeFilterCondition } from "./facets";
import { ensureDefinitions, insertDefinition, replaceProductAttributes } from "./writes";
import { appForTests } from "../../../../tests/support/store";

// Five brake parts with a diameter (number, mm), a vent type (choice: Vented before Solid) and a
// material (text), one brake part with none, an oil filter; two of the brake parts fit a vehicle.
const { t } = appForTests();
const attr = {} as Record<"diameter" | "vent" | "material" | "filterType", string>;
const id = {} as Record<"alpha" | "beta" | "gamma" | "delta" | "pads", string>;
let vehicleQuery: string;

beforeAll(async () => {
  const db = t.database.db;
  const brakes = await ensureDefinitions(db, "Brakes", [
    { name: "Diameter", kind: "number", unit: "mm" },
    { name: "Material", kind: "text", unit: null },
  ]);
  const vent = await insertDefinition(db, {
    category: "Brakes",
    name: "Vent type",
    kind: "choice",
    unit: null,
    choices: ["Vented", "Solid"],
    position: 2,
    filterable: true,
  });
  const [filterType] = await ensureDefinitions(db, "Filters", [
    { name: "Thread", kind: "text", unit: null },
  ]);
  attr.diameter = brakes.find((d) => d.name === "Diameter")!.id;
  attr.material = brakes.find((d) => d.name === "Material")!.id;
  attr.vent = vent.id;
  attr.filterType = filterType!.id;

  const specs = [
    ["alpha", "Front disc alpha", "280", "Vented", "Cast iron", 5000],
    ["beta", "Front disc beta", "300", "Vented", "Carbon", 9000],
    ["gamma", "Rear disc gamma", "280.0", "Solid", "Cast iron", 4000],
    ["delta", "Rear drum delta", "250", "Solid", null, 3000],
  ] as const;
  for (const [key, name, diameter, ventType, material, priceCents] of specs) {
    const p = await insertProduct(db, { name, category: "Brakes", priceCents });
    id[key] = p.id;
    await replaceProductAttributes(db, p.id, [
      { attributeId: attr.diameter, numberValue: diameter, textValue: null },
      { attributeId: attr.vent, numberValue: null, textValue: ventType },
      ...(material ? [{ attributeId: attr.material, numberValue: null, textValue: material }] : []),
    ]);
  }
  id.pads = (await insertProduct(db, { name: "Brake pad set", category: "Brakes" })).id;
  await insertProduct(db, { name: "Oil filter", category: "Filters" });

  const { choice, baseVehicleIds } = await insertVehicle(db, "Facetmake", "Facetmodel", [2018]);
  await db.insert(productFitments).values([
    { productId: id.alpha, baseVehicleId: baseVehicleIds[0]! },
    { productId: id.delta, baseVehicleId: baseVehicleIds[0]! },
  ]);
  vehicleQuery = `year=2018&make=${choice.make}&model=${choice.model}`;
});

const get = (url: string) => t.app.inject({ method: "GET", url });
const f = (attributeId: string, value: string) =>
  `attr=${encodeURIComponent(`${attributeId}:${value}`)}`;

/** The names a list query answers (by name), and its total. */
async function listed(query: string) {
  const res = await get(`/api/products?sort=name&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return {
    names: (res.json() as { name: string }[]).map((p) => p.name),
    total: Number(res.headers["x-total-count"]),
  };
}

/** The facets answer as `{ name: { value: count } }`, values in the order given. */
async function facets(query: string) {
  const res = await get(`/api/products/facets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Facets;
  return Object.fromEntries(
    body.facets.map((facet) => [
      facet.name,
      Object.fromEntries(facet.values.map((v) => [v.value, v.count])),
    ]),
  );
}

describe("the list filtered by attribute values", () => {
  test("no attribute filter: the list and its total are what they were", async () => {
    expect(await listed("category=Brakes")).toEqual({
      names: [
        "Brake pad set",
        "Front disc alpha",
        "Front disc beta",
        "Rear disc gamma",
        "Rear drum delta",
      ],
      total: 5,
    });
    expect(attributeFilterCondition([])).toBeUndefined();
  });

  test("several values of one attribute: any of them (a number matches however it is written)", async () => {
    expect(
      await listed(`category=Brakes&${f(attr.diameter, "280")}&${f(attr.diameter, "300")}`),
    ).toEqual({ names: ["Front disc alpha", "Front disc beta", "Rear disc gamma"], total: 3 });
    expect((await listed(`${f(attr.diameter, "280.00")}`)).names).toEqual([
      "Front disc alpha",
      "Rear disc gamma",
    ]);
  });

  test("different attributes: all of them, with the other filters too", async () => {
    const both = `category=Brakes&${f(attr.diameter, "280")}&${f(attr.vent, "Vented")}`;
    expect(await listed(both)).toEqual({ names: ["Front disc alpha"], total: 1 });
    // A choice in any case, a search (ranked), a price range and a vehicle narrow it alike.
    expect((await listed(`q=disc&${f(attr.vent, "solid")}`)).names).toEqual(["Rear disc gamma"]);
    expect((await listed(`maxPrice=45&${f(attr.material, "Cast iron")}`)).names).toEqual([
      "Rear disc gamma",
    ]);
    expect((await listed(`${vehicleQuery}&${f(attr.vent, "Solid")}`)).names).toEqual([
      "Rear drum delta",
    ]);
  });

  test("the same filters in another order are the same answer", async () => {
    const a = await get(`/api/products?${f(attr.vent, "Vented")}&${f(attr.diameter, "280")}`);
    const b = await get(`/api/products?${f(attr.diameter, "280")}&${f(attr.vent, "Vented")}`);
    expect(b.headers.etag).toBe(a.headers.etag);
  });
});

describe("facet counts", () => {
  test("offered only with a category: none without one", async () => {
    const res = await get("/api/products/facets");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ facets: [] });
    expect(await facets("category=Filters")).toEqual({});
  });

  test("each filterable attribute with its values and counts, in order", async () => {
    const res = await get("/api/products/facets?category=Brakes");
    const body = res.json() as Facets;
    expect(body.facets.map((x) => [x.name, x.kind, x.unit])).toEqual([
      ["Diameter", "number", "mm"],
      ["Material", "text", null],
      ["Vent type", "choice", null],
    ]);
    expect(body.facets[0]!.attributeId).toBe(attr.diameter);
    // Numbers ascending (280 and 280.0 are one value), choices in their order, texts A–Z.
    expect(await facets("category=Brakes")).toEqual({
      Diameter: { "250": 1, "280": 2, "300": 1 },
      "Vent type": { Vented: 2, Solid: 2 },
      Material: { Carbon: 1, "Cast iron": 2 },
    });
    expect(Object.keys((await facets("category=Brakes"))["Vent type"]!)).toEqual([
      "Vented",
      "Solid",
    ]);
  });

  test("disjunctive: a chosen value's siblings keep their counts, the other facets narrow", async () => {
    expect(await facets(`category=Brakes&${f(attr.diameter, "280")}`)).toEqual({
      Diameter: { "250": 1, "280": 2, "300": 1 },
      "Vent type": { Vented: 1, Solid: 1 },
      Material: { "Cast iron": 2 },
    });
    expect(
      await facets(`category=Brakes&${f(attr.diameter, "280")}&${f(attr.vent, "Solid")}`),
    ).toEqual({
      Diameter: { "250": 1, "280": 1 },
      "Vent type": { Vented: 1, Solid: 1 },
      Material: { "Cast iron": 1 },
    });
  });

  test("counted with the other filters: a search, a vehicle, a price range, stock", async () => {
    expect(await facets("category=Brakes&q=rear")).toEqual({
      Diameter: { "250": 1, "280": 1 },
      "Vent type": { Solid: 2 },
      Material: { "Cast iron": 1 },
    });
    expect(await facets(`category=Brakes&${vehicleQuery}`)).toEqual({
      Diameter: { "250": 1, "280": 1 },
      "Vent type": { Vented: 1, Solid: 1 },
      Material: { "Cast iron": 1 },
    });
    expect(await facets("category=Brakes&minPrice=50&inStock=true")).toEqual({
      Diameter: { "280": 1, "300": 1 },
      "Vent type": { Vented: 2 },
      Material: { Carbon: 1, "Cast iron": 1 },
    });
  });

  test("a chosen value nothing has any more stays listed, with 0", async () => {
    expect((await facets(`category=Brakes&q=rear&${f(attr.diameter, "300")}`)).Diameter).toEqual({
      "250": 1,
      "280": 1,
      "300": 0,
    });
  });

  test("cached like the list, and cleared when the catalog changes", async () => {
    const url = "/api/products/facets?category=Brakes&limit=1";
    const first = await get(url);
    expect((await get(url)).headers.etag).toBe(first.headers.etag);
    await replaceProductAttributes(
      t.database.db,
      id.pads,
      [{ attributeId: attr.material, numberValue: null, textValue: "Ceramic" }],
      [attr.material],
    );
    await expect
      .poll(async () => (await facets("category=Brakes&limit=1")).Material)
      .toEqual({ Carbon: 1, "Cast iron": 2, Ceramic: 1 });
    await replaceProductAttributes(t.database.db, id.pads, []);
    await expect
      .poll(async () => (await facets("category=Brakes")).Material)
      .toEqual({ Carbon: 1, "Cast iron": 2 });
  });
});

describe("bad attribute filters are refused with 400", () => {
  const refused = async (query: string, message: string) => {
    for (const path of ["/api/products", "/api/products/facets"]) {
      const res = await get(`${path}?${query}`);
      expect(res.statusCode, `${path}?${query}`).toBe(400);
      expect(res.json().message).toContain(message);
    }
  };

  test("malformed: no id, an id that is not one, no value", async () => {
    await refused("attr=280", facetMessages.malformed);
    await refused(`attr=${encodeURIComponent("disc:280")}`, facetMessages.malformed);
    await refused(`attr=${encodeURIComponent(`${attr.diameter}:`)}`, facetMessages.malformed);
  });

  test("more than the most at once", async () => {
    const many = Array.from({ length: MAX_ATTRIBUTE_FILTERS + 1 }, (_, i) =>
      f(attr.diameter, String(i + 1)),
    ).join("&");
    await refused(many, facetMessages.tooMany);
    // The most is allowed.
    const most = Array.from({ length: MAX_ATTRIBUTE_FILTERS }, (_, i) =>
      f(attr.diameter, String(i + 1)),
    ).join("&");
    expect((await get(`/api/products?${most}`)).statusCode).toBe(200);
  });

  test("an unknown attribute, one of another category, a value it cannot have", async () => {
    await refused(f("00000000-0000-4000-8000-000000000000", "280"), facetMessages.unknown);
    await refused(
      `category=Filters&${f(attr.diameter, "280")}`,
      facetMessages.otherCategory("Diameter", "Filters"),
    );
    await refused(f(attr.diameter, "big"), attributeMessages.notANumber("Diameter"));
    await refused(
      f(attr.vent, "Drilled"),
      attributeMessages.notAChoice("Vent type", ["Vented", "Solid"]),
    );
    // The attribute of its own category is fine, and another category's filter is not taken.
    expect((await listed(`category=Filters&${f(attr.filterType, "M20")}`)).names).toEqual([]);
  });
});
