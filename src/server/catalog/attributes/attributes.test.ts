import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import type { TestAccount } from "../../../../tests/support/accounts";
import { brakeDiameter } from "../../../../tests/support/attributes";
import { insertProduct } from "../../../../tests/support/factories";
import { answersOf, type Method } from "../../../../tests/support/requests";
import { storeForTests } from "../../../../tests/support/store";
import { createTestDatabase } from "../../../../tests/support/test-database";
import { products } from "../tables";
import { seedDemoData } from "../../demo/seed";
import {
  attributeMessages as say,
  MAX_ATTRIBUTES_PER_CATEGORY,
  type AdminAttributeDefinition,
  type AttributeDefinition,
  type ProductAttribute,
} from "../../../contract/attributes";
import type { ProductCategory } from "../../../contract/constants";
import type { ProductDetail } from "../../../contract/products";
import { adminAuditLog } from "../../audit/tables";
import { attributesOf } from "./reads";
import { attributeDefinitions, productAttributes } from "./tables";

// Attribute definitions and products' values through the API, as the admin screens use them
// (docs/attributes.md).

const { t, admin, customer } = storeForTests({
  admin: "attribute-admin@example.com",
  customers: { customer: {} },
});

const call = (method: Method, url: string, payload?: object, who: TestAccount | null = admin) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    payload,
    headers: who ? { cookie: who.cookie } : {},
  });
const { ok, refusal } = answersOf(call);
const lastAudit = async () =>
  (await t.database.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.at)).limit(1))[0]!;

const define = (category: ProductCategory, body: object) =>
  ok<AttributeDefinition>("POST", "/attributes", { category, ...body });
const setValues = (productId: string, values: { attributeId: string; value: string }[]) =>
  call("PUT", `/products/${productId}/attributes`, { values });

test("an admin defines attributes; anyone reads a category's in order; the audit log names each", async () => {
  const diameter = await define("Brakes", { name: "Diameter", kind: "number", unit: "mm" });
  // No choices, the first position, filterable: as brakeDiameter is made.
  expect(diameter).toMatchObject(brakeDiameter);
  expect(await lastAudit()).toMatchObject({
    action: "attribute.add",
    targetType: "attribute",
    targetId: diameter.id,
    summary: "Added Diameter (number, mm) to Brakes",
  });
  const vent = await define("Brakes", {
    name: "Vent type",
    kind: "choice",
    choices: ["Solid", "Vented"],
    filterable: false,
  });
  expect(vent.position).toBe(1);
  const material = await define("Brakes", { name: "Pad material", kind: "text" });

  const read = await call("GET", "/attributes?category=Brakes", undefined, null);
  expect(read.statusCode).toBe(200);
  expect((read.json() as AttributeDefinition[]).map((d) => d.name)).toEqual([
    "Diameter",
    "Vent type",
    "Pad material",
  ]);
  // Moved first: the order follows the positions.
  await ok("PATCH", `/attributes/${material.id}`, { position: 0 });
  const again = (await call("GET", "/attributes?category=Brakes", undefined, customer)).json();
  expect((again as AttributeDefinition[]).map((d) => d.name)).toEqual([
    "Diameter",
    "Pad material",
    "Vent type",
  ]);
  // Without a category: every category's.
  await define("Wipers", { name: "Length", kind: "number", unit: "mm" });
  const all = (await call("GET", "/attributes", undefined, null)).json() as AttributeDefinition[];
  expect(all.map((d) => `${d.category}/${d.name}`)).toEqual(
    expect.arrayContaining(["Brakes/Diameter", "Wipers/Length"]),
  );
});

test("a name is unique in its category in any case (409); another category may use it", async () => {
  await define("Filters", { name: "Height", kind: "number", unit: "mm" });
  const dup = await refusal("POST", "/attributes", {
    category: "Filters",
    name: "  HEIGHT ",
    kind: "text",
  });
  expect(dup).toMatchObject({ status: 409, message: say.taken("Height", "Filters") });
  await define("Cooling", { name: "Height", kind: "number", unit: "mm" });
  const thread = await define("Filters", { name: "Thread", kind: "text" });
  const rename = await refusal("PATCH", `/attributes/${thread.id}`, { name: "height" });
  expect(rename).toMatchObject({ status: 409, message: say.taken("Height", "Filters") });
  // Its own name in another case is a rename, not a clash.
  expect(
    (await ok<AttributeDefinition>("PATCH", `/attributes/${thread.id}`, { name: "THREAD" })).name,
  ).toBe("THREAD");
});

test("bad definitions are 400s with the contract's words, never 500s", async () => {
  const cases: [object, string][] = [
    [{ category: "Brakes", name: "", kind: "text" }, say.name],
    [{ category: "Brakes", name: "x".repeat(61), kind: "text" }, say.name],
    [{ category: "Nope", name: "A", kind: "text" }, say.category],
    [{ category: "Brakes", name: "A", kind: "date" }, say.kind],
    [{ category: "Brakes", name: "A", kind: "text", unit: "mm" }, say.unit],
    [{ category: "Brakes", name: "A", kind: "number", unit: "millimetres!!" }, say.unit],
    [{ category: "Brakes", name: "A", kind: "choice" }, say.choices],
    [{ category: "Brakes", name: "A", kind: "choice", choices: [] }, say.choices],
    [{ category: "Brakes", name: "A", kind: "choice", choices: ["Solid", "solid"] }, say.choices],
    [{ category: "Brakes", name: "A", kind: "text", choices: ["x"] }, say.choices],
    [{ category: "Brakes", name: "A\u0000", kind: "text" }, "Must not contain control characters"],
  ];
  for (const [body, message] of cases) {
    const res = await refusal("POST", "/attributes", body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.message, JSON.stringify(body)).toContain(message);
  }
  const text = await define("Lighting", { name: "Bulb", kind: "text" });
  expect(await refusal("PATCH", `/attributes/${text.id}`, { kind: "number" })).toMatchObject({
    status: 400,
    message: expect.stringContaining(say.kindFixed),
  });
  expect(await refusal("PATCH", `/attributes/${text.id}`, { unit: "W" })).toMatchObject({
    status: 400,
    message: say.unit,
  });
  expect(await refusal("PATCH", `/attributes/${text.id}`, { choices: ["H7"] })).toMatchObject({
    status: 400,
    message: say.choices,
  });
  expect((await refusal("PATCH", `/attributes/${text.id}`, {})).status).toBe(400);
  expect((await refusal("PATCH", `/attributes/${text.id}`, { position: -1 })).status).toBe(400);
  expect((await refusal("PATCH", "/attributes/not-an-id", { name: "X" })).message).toContain(
    say.id,
  );
  const gone = "5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11";
  expect(await refusal("PATCH", `/attributes/${gone}`, { name: "X" })).toMatchObject({
    status: 404,
    message: say.notFound,
  });
  expect(await refusal("DELETE", `/attributes/${gone}`)).toMatchObject({ status: 404 });
  expect((await refusal("GET", "/attributes?category=Nope")).status).toBe(400);
});

test("a category holds at most MAX_ATTRIBUTES_PER_CATEGORY attributes", async () => {
  for (let i = 0; i < MAX_ATTRIBUTES_PER_CATEGORY; i++) {
    await define("Steering", { name: `Attribute ${i}`, kind: "text" });
  }
  expect(
    await refusal("POST", "/attributes", { category: "Steering", name: "One more", kind: "text" }),
  ).toMatchObject({ status: 409, message: say.tooMany("Steering") });
});

describe("a product's values", () => {
  let thread: AttributeDefinition;
  let heat: AttributeDefinition;
  let electrode: AttributeDefinition;
  let make: AttributeDefinition;
  let plug: Awaited<ReturnType<typeof insertProduct>>;
  beforeAll(async () => {
    thread = await define("Ignition", { name: "Thread", kind: "number", unit: "mm" });
    heat = await define("Ignition", { name: "Heat range", kind: "number" });
    electrode = await define("Ignition", {
      name: "Electrode",
      kind: "choice",
      choices: ["Copper", "Iridium"],
    });
    make = await define("Ignition", { name: "Coating", kind: "text" });
    plug = await insertProduct(t.database.db, { category: "Ignition", name: "Plug" });
  });

  test("are checked against the product's category's definitions, stored, answered in order and audited", async () => {
    const res = await setValues(plug.id, [
      { attributeId: electrode.id, value: "iridium" },
      { attributeId: thread.id, value: "14,0" },
      { attributeId: heat.id, value: "7" },
      { attributeId: make.id, value: "  " },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const expected: ProductAttribute[] = [
      { name: "Thread", value: "14", unit: "mm" },
      { name: "Heat range", value: "7", unit: null },
      { name: "Electrode", value: "Iridium", unit: null },
    ];
    expect(res.json()).toEqual({ attributes: expected });
    const detail = (
      await call("GET", `/products/${plug.id}`, undefined, null)
    ).json() as ProductDetail;
    expect(detail.attributes).toEqual(expected);
    expect(await lastAudit()).toMatchObject({
      action: "product.attributes",
      targetId: plug.id,
      summary: `Set the attributes of Plug (${plug.partNumber}): Thread 14 mm, Heat range 7, Electrode Iridium`,
    });
    // The PUT replaces: what is left out has no value any more.
    await setValues(plug.id, [{ attributeId: make.id, value: "Nickel" }]);
    expect((await attributesOf(t.database.db, [plug.id])).get(plug.id)).toEqual([
      { name: "Coating", value: "Nickel", unit: null },
    ]);
  });

  test("a bad value, another category's attribute, an unknown one or the same one twice is a 400 naming it", async () => {
    const before = await attributesOf(t.database.db, [plug.id]);
    const bad = async (values: { attributeId: string; value: string }[]) => {
      const res = await setValues(plug.id, values);
      expect(res.statusCode, res.body).toBe(400);
      return res.json() as { message: string; fields?: Record<string, string> };
    };
    expect(await bad([{ attributeId: thread.id, value: "M14" }])).toMatchObject({
      message: say.notANumber("Thread"),
      fields: { [thread.id]: say.notANumber("Thread") },
    });
    expect((await bad([{ attributeId: electrode.id, value: "Gold" }])).message).toBe(
      say.notAChoice("Electrode", ["Copper", "Iridium"]),
    );
    const brakes = await define("Brakes", { name: "Thread", kind: "number", unit: "mm" });
    expect((await bad([{ attributeId: brakes.id, value: "14" }])).message).toBe(
      say.otherCategory("Thread", "Ignition"),
    );
    expect(
      (await bad([{ attributeId: "5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11", value: "1" }])).message,
    ).toBe(say.notFound);
    expect(
      (
        await bad([
          { attributeId: thread.id, value: "14" },
          { attributeId: thread.id, value: "12" },
        ])
      ).message,
    ).toContain(say.oneValueEach);
    expect((await bad([{ attributeId: make.id, value: "x".repeat(201) }])).message).toContain(
      say.valueLength,
    );
    // Nothing was written by any of them.
    expect(await attributesOf(t.database.db, [plug.id])).toEqual(before);
    const missing = await setValues("5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11", []);
    expect(missing.statusCode).toBe(404);
  });

  test("a choice parts use cannot be removed (409 saying how many); an unused one can", async () => {
    const other = await insertProduct(t.database.db, { category: "Ignition" });
    await setValues(plug.id, [{ attributeId: electrode.id, value: "Copper" }]);
    await setValues(other.id, [{ attributeId: electrode.id, value: "Copper" }]);
    expect(
      await refusal("PATCH", `/attributes/${electrode.id}`, { choices: ["Iridium", "Platinum"] }),
    ).toMatchObject({ status: 409, message: say.choiceInUse("Copper", 2) });
    const changed = await ok<AttributeDefinition>("PATCH", `/attributes/${electrode.id}`, {
      choices: ["Copper", "Platinum"],
      name: "Centre electrode",
    });
    expect(changed).toMatchObject({ name: "Centre electrode", choices: ["Copper", "Platinum"] });
    expect(await lastAudit()).toMatchObject({
      action: "attribute.change",
      summary:
        "Changed Ignition attribute Electrode: name Electrode → Centre electrode, choices Copper, Iridium → Copper, Platinum",
    });
    // The admin's table counts the parts with a value.
    const table = (
      await ok<AdminAttributeDefinition[]>("GET", "/attributes/table?category=Ignition")
    ).find((d) => d.id === electrode.id);
    expect(table?.usedBy).toBe(2);
  });

  test("removing an attribute removes every part's value of it, in the audit log with the count", async () => {
    await setValues(plug.id, [
      { attributeId: heat.id, value: "6" },
      { attributeId: thread.id, value: "12" },
    ]);
    await ok("DELETE", `/attributes/${heat.id}`);
    expect(await lastAudit()).toMatchObject({
      action: "attribute.remove",
      targetId: heat.id,
      summary: "Removed Ignition attribute Heat range (number); 1 part lost a value",
    });
    const left = await t.database.db
      .select()
      .from(productAttributes)
      .where(and(eq(productAttributes.productId, plug.id)));
    expect(left.map((r) => r.attributeId)).toEqual([thread.id]);
    expect(
      await t.database.db
        .select()
        .from(attributeDefinitions)
        .where(eq(attributeDefinitions.id, heat.id)),
    ).toEqual([]);
  });
});

test("only admins change definitions and values; anyone reads definitions", async () => {
  const product = await insertProduct(t.database.db, { category: "Fuel" });
  const attempts: [Method, string, object?][] = [
    ["POST", "/attributes", { category: "Fuel", name: "Flow", kind: "number", unit: "L/h" }],
    ["PATCH", "/attributes/5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11", { name: "X" }],
    ["DELETE", "/attributes/5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11"],
    ["PUT", `/products/${product.id}/attributes`, { values: [] }],
    ["GET", "/attributes/table"],
  ];
  for (const [method, url, body] of attempts) {
    expect((await call(method, url, body, null)).statusCode, `${method} ${url}`).toBe(401);
    expect((await call(method, url, body, customer)).statusCode, `${method} ${url}`).toBe(403);
  }
  expect((await call("GET", "/attributes?category=Fuel", undefined, null)).statusCode).toBe(200);
});

test("the demo seed defines its categories' attributes and gives the demo parts values, once", async () => {
  const demo = await createTestDatabase();
  try {
    expect(await seedDemoData(demo.db)).toBe(true);
    const [disc] = await demo.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.partNumber, "PW-BK-3001"));
    expect((await attributesOf(demo.db, [disc!.id])).get(disc!.id)).toEqual([
      { name: "Diameter", value: "300", unit: "mm" },
      { name: "Thickness", value: "25", unit: "mm" },
      { name: "Vent type", value: "Vented", unit: null },
      { name: "Axle", value: "Front", unit: null },
    ]);
    const counts = async () => [
      (await demo.db.select().from(attributeDefinitions)).length,
      (await demo.db.select().from(productAttributes)).length,
    ];
    const before = await counts();
    expect(before[0]).toBeGreaterThan(10);
    // A restart seeds nothing again.
    expect(await seedDemoData(demo.db)).toBe(false);
    expect(await counts()).toEqual(before);
  } finally {
    await demo.close();
  }
});
