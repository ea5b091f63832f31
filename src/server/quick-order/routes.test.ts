import { beforeAll, expect, test } from "vitest";
import { signUp, signUpAdmin } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { multipart } from "../../../tests/support/multipart";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { requestsAs } from "../../../tests/support/requests";
import type { SavedList } from "../../contract/lists";
import type { QuickOrderAdded, QuickOrderResult } from "../../contract/quick-order";
import { productCrossReferences } from "../catalog/tables";
import { insertDefinition, replaceProductAttributes } from "../catalog/attributes/writes";
import { appForTests } from "../../../tests/support/store";

const { t } = appForTests({ env: { ADMIN_EMAILS: "qo-admin@example.com,qo-admin-2@example.com" } });
let disc: Awaited<ReturnType<typeof insertProduct>>;
let filter: Awaited<ReturnType<typeof insertProduct>>;

beforeAll(async () => {
  const db = t.database.db;
  disc = await insertProduct(db, {
    partNumber: "QO-BK-3001",
    priceCents: 12950,
    minimumOrder: 2,
    // Visitors are held to the retail minimum (docs/pricing.md "Quantities by group").
    retailMinimum: 2,
    availableQuantity: 640,
  });
  filter = await insertProduct(db, {
    partNumber: "QO-FL-1104",
    priceCents: 449,
    minimumOrder: 1,
    availableQuantity: 4800,
  });
  await insertProduct(db, {
    partNumber: "QO-SC-0001",
    minimumOrder: 1,
    availableQuantity: 3,
  });
  const twinA = await insertProduct(db, { partNumber: "QO-TW-0001", minimumOrder: 1 });
  const twinB = await insertProduct(db, { partNumber: "QO-TW-0002", minimumOrder: 1 });
  await db.insert(productCrossReferences).values([
    { productId: disc.id, kind: "OE", brand: "Toyota", number: "04465-02220" },
    { productId: disc.id, kind: "competitor", brand: "Brembo", number: "09.C412.21" },
    { productId: disc.id, kind: "superseded", brand: "PartsWorks", number: "QO-BK-2990" },
    { productId: filter.id, kind: "competitor", brand: "Bosch", number: "0 451 103 316" },
    { productId: twinA.id, kind: "competitor", brand: "Acme", number: "TWIN-77" },
    { productId: twinB.id, kind: "competitor", brand: "Acme", number: "TWIN-77" },
  ]);
});

const call = requestsAs(() => t.app);

const resolve = async (payload: object, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/quick-order/resolve",
    payload,
    headers: cookie ? { cookie } : {},
  });

test("pasted text resolves ours, OE, competitor and superseded numbers in any spelling, with each line's problems", async () => {
  const res = await resolve({
    text: [
      "Part number;Qty",
      "qo bk 3001;2",
      "",
      "04465.02220\t4",
      "09c41221, 6",
      "qo-bk-2990 2",
      "0 451 103 316",
      "NOPE-123 5",
    ].join("\n"),
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<QuickOrderResult>();
  // The four numbers of the disc are one line (merged), the filter one, the unknown one.
  expect(body.lines.map((l) => [l.line, l.product?.partNumber ?? null, l.qty])).toEqual([
    [2, "QO-BK-3001", 14],
    [7, "QO-FL-1104", 1],
    [8, null, 5],
  ]);
  const [discLine, filterLine, unknown] = body.lines;
  expect(discLine!.matched).toEqual({ kind: "ours", brand: "", number: "QO-BK-3001" });
  expect(discLine!.unitPrice).toBe(129.5);
  expect(discLine!.lineTotal).toBe(129.5 * 14);
  expect(discLine!.problems.map((p) => p.message)).toEqual(["Merged from lines 2, 4, 5, 6"]);
  expect(filterLine!.matched).toEqual({
    kind: "competitor",
    brand: "Bosch",
    number: "0 451 103 316",
  });
  expect(unknown!.problems[0]).toMatchObject({
    code: "unknown",
    message: "No part has the number NOPE-123",
    blocking: true,
  });
  expect(body.ready).toBe(2);
});

test("a found part carries its attributes in their order; one without any an empty list", async () => {
  await t.database.db.transaction(async (tx) => {
    const size = await insertDefinition(tx, {
      category: "Other",
      name: "QO size",
      kind: "number",
      unit: "mm",
      choices: [],
      position: 0,
      filterable: true,
    });
    const finish = await insertDefinition(tx, {
      category: "Other",
      name: "QO finish",
      kind: "text",
      unit: null,
      choices: [],
      position: 1,
      filterable: true,
    });
    await replaceProductAttributes(tx, disc.id, [
      { attributeId: finish.id, numberValue: null, textValue: "Coated" },
      { attributeId: size.id, numberValue: "280.0", textValue: null },
    ]);
  });
  try {
    const body = (await resolve({ text: "QO-BK-3001 2\nQO-FL-1104 1" })).json<QuickOrderResult>();
    expect(body.lines.map((l) => l.product?.attributes)).toEqual([
      [
        { name: "QO size", value: "280", unit: "mm" },
        { name: "QO finish", value: "Coated", unit: null },
      ],
      [],
    ]);
  } finally {
    await t.database.db.transaction((tx) => replaceProductAttributes(tx, disc.id, []));
  }
});

test("each kind of number says which kind matched; a superseded number says its replacement", async () => {
  const res = await resolve({
    lines: [
      { number: "04465 02220", qty: 2 },
      { number: "09.c412.21", qty: 2 },
      { number: "QO-BK-2990", qty: 2 },
    ],
  });
  const lines = res.json<QuickOrderResult>().lines;
  expect(lines).toHaveLength(1);
  expect(lines[0]!.matched?.kind).toBe("OE");
  const single = async (number: string) =>
    (await resolve({ lines: [{ number, qty: 2 }] })).json<QuickOrderResult>().lines[0]!;
  expect((await single("09.c412.21")).matched).toMatchObject({
    kind: "competitor",
    brand: "Brembo",
  });
  const superseded = await single("qo bk 2990");
  expect(superseded.matched?.kind).toBe("superseded");
  expect(superseded.product?.id).toBe(disc.id);
  expect(superseded.problems).toEqual([
    { code: "superseded", message: "QO-BK-2990 is superseded by QO-BK-3001", blocking: false },
  ]);
});

test("problems: below minimum, over stock, bad quantity, ambiguous, unknown with did-you-mean", async () => {
  const res = await resolve({
    lines: [
      { number: "QO-BK-3001", qty: 1 },
      { number: "QO-SC-0001", qty: 4 },
      { number: "QO-FL-1104", qty: "two" },
      { number: "TWIN-77", qty: 1 },
      { number: "QO-FL-1140", qty: 1 },
    ],
  });
  expect(res.statusCode).toBe(200);
  const lines = res.json<QuickOrderResult>().lines;
  expect(lines.map((l) => l.problems.map((p) => [p.code, p.message, p.qty]))).toEqual([
    [["below_minimum", "please order at least 2", 2]],
    [["over_stock", "please order less then 3", 3]],
    [["bad_quantity", "Enter a whole quantity of at least 1", undefined]],
    [["ambiguous", "TWIN-77 fits more than one of our parts: choose one", undefined]],
    [["unknown", "No part has the number QO-FL-1140", undefined]],
  ]);
  expect(lines[3]!.problems[0]!.suggestions!.map((s) => s.number).sort()).toEqual([
    "QO-TW-0001",
    "QO-TW-0002",
  ]);
  expect(lines[4]!.problems[0]!.suggestions!.map((s) => s.number)).toContain("QO-FL-1104");
  expect(res.json<QuickOrderResult>().ready).toBe(0);
});

test("a CSV upload with a BOM, semicolons and a header resolves like pasted text", async () => {
  const csv = Buffer.from("\uFEFFpart_number;quantity\r\nQO-FL-1104;10\r\n;\r\n04465-02220;2\r\n");
  const res = await t.app.inject({
    method: "POST",
    url: "/api/quick-order/upload",
    ...multipart({ data: csv, filename: "order.csv", type: "text/csv", field: "file" }),
  });
  expect(res.statusCode).toBe(200);
  const lines = res.json<QuickOrderResult>().lines;
  expect(lines.map((l) => [l.line, l.product?.id, l.qty])).toEqual([
    [2, filter.id, 10],
    [4, disc.id, 2],
  ]);
});

test("a 5 MB file is refused with 413 and a clear message, not a 500", async () => {
  const big = Buffer.alloc(5 * 1024 * 1024, "QO-FL-1104;1\n");
  const res = await t.app.inject({
    method: "POST",
    url: "/api/quick-order/upload",
    ...multipart({ data: big, filename: "big.csv", type: "text/csv", field: "file" }),
  });
  expect(res.statusCode).toBe(413);
  expect(res.json().message).toBe("The file must be 256 KiB or smaller (at most 500 lines)");
});

test("a 5 MB JSON body is refused with 413", async () => {
  const res = await resolve({ text: "QO-FL-1104 1\n".repeat(400_000) });
  expect(res.statusCode).toBe(413);
});

test("500 lines resolve; 501 are refused as a whole with a clear message", async () => {
  const lines500 = Array.from({ length: 500 }, (_, i) => `QO-FL-1104;${(i % 3) + 1}`).join("\n");
  const ok = await resolve({ text: lines500 });
  expect(ok.statusCode).toBe(200);
  expect(ok.json<QuickOrderResult>().lines).toHaveLength(1);
  expect(ok.json<QuickOrderResult>().lines[0]!.qty).toBe(999);
  const tooMany = await resolve({ text: `${lines500}\nQO-FL-1104;1` });
  expect(tooMany.statusCode).toBe(422);
  expect(tooMany.json().message).toBe(
    "A quick order takes at most 500 lines at a time; this one has 501. Split it in two.",
  );
});

test("pasted text past its length is refused with the limit written out", async () => {
  const tooLong = await resolve({ text: "x".repeat(100_001) });
  expect(tooLong.statusCode).toBe(400);
  expect(tooLong.json().fields).toEqual({ text: "Paste at most 100,000 characters at a time" });
});

test("bad bodies are 400 or 422, never 500", async () => {
  expect((await resolve({})).statusCode).toBe(400);
  expect((await resolve({ text: "a", lines: [] })).statusCode).toBe(400);
  expect((await resolve({ text: "x\u0000y" })).statusCode).toBe(400);
  expect((await resolve({ text: "\n\n  \n" })).statusCode).toBe(422);
  const odd = await resolve({ lines: [{ number: "-", qty: 1e30 }, { number: "Ü".repeat(200) }] });
  expect(odd.statusCode).toBe(200);
  expect(odd.json<QuickOrderResult>().lines.map((l) => l.problems[0]?.code)).toEqual([
    "unknown",
    "unknown",
  ]);
  const notCsv = await t.app.inject({
    method: "POST",
    url: "/api/quick-order/upload",
    ...multipart({
      data: Buffer.from([0, 1, 2, 0]),
      filename: "x.csv",
      type: "text/csv",
      field: "file",
    }),
  });
  expect(notCsv.statusCode).toBe(400);
  const json = await call(null, "POST", "/api/quick-order/upload", { text: "x" });
  expect(json.statusCode).toBe(415);
});

test("Add all to cart adds the good lines in one go and answers the others for editing", async () => {
  const who = await signUp(t.app);
  const res = await call(who, "POST", "/api/quick-order/add-to-cart", {
    text: "QO-BK-3001 2\n0 451 103 316 5\nNOPE-1 1\nQO-SC-0001 9",
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<QuickOrderAdded>();
  expect(body.added).toBe(2);
  expect(body.cart.lines.map((l) => [l.productId, l.qty])).toEqual([
    [disc.id, 2],
    [filter.id, 5],
  ]);
  expect(body.left.map((l) => l.number)).toEqual(["NOPE-1", "QO-SC-0001"]);
  // Again: the quantities are added to what the cart holds.
  const again = await call(who, "POST", "/api/quick-order/add-to-cart", {
    lines: [{ number: "QO-BK-3001", qty: 2 }],
  });
  expect(again.json<QuickOrderAdded>().cart.lines[0]!.qty).toBe(4);
  const none = await call(who, "POST", "/api/quick-order/add-to-cart", {
    lines: [{ number: "NOPE-1", qty: 1 }],
  });
  expect(none.statusCode).toBe(422);
  expect(none.json().message).toBe(
    "None of these lines can be added yet: fix their problems first",
  );
});

test("a cart that would grow past its size takes none of the lines", async () => {
  const who = await signUp(t.app);
  const many = await Promise.all(
    Array.from({ length: 100 }, () => insertProduct(t.database.db, { minimumOrder: 1 })),
  );
  const first = await call(who, "POST", "/api/quick-order/add-to-cart", {
    lines: many.slice(0, 99).map((p) => ({ number: p.partNumber, qty: 1 })),
  });
  expect(first.json<QuickOrderAdded>().cart.lines).toHaveLength(99);
  const over = await call(who, "POST", "/api/quick-order/add-to-cart", {
    lines: [many[99]!, disc].map((p) => ({ number: p.partNumber, qty: 2 })),
  });
  expect(over.statusCode).toBe(422);
  const cart = await call(who, "GET", "/api/cart");
  expect(cart.json().lines).toHaveLength(99);
});

test("anonymous callers resolve at list prices; adding to a cart needs a customer", async () => {
  expect((await resolve({ lines: [{ number: "QO-FL-1104", qty: 1 }] })).statusCode).toBe(200);
  const anon = await call(null, "POST", "/api/quick-order/add-to-cart", {
    lines: [{ number: "QO-FL-1104", qty: 1 }],
  });
  expect(anon.statusCode).toBe(401);
  const admin = await signUpAdmin(t, { email: "qo-admin@example.com" });
  const asAdmin = await call(admin, "POST", "/api/quick-order/add-to-cart", {
    lines: [{ number: "QO-FL-1104", qty: 1 }],
  });
  expect(asAdmin.statusCode).toBe(403);
});

test("a company buyer's lines resolve at their company's price and break, and so do their saved lists", async () => {
  const admin = await signUpAdmin(t, { email: "qo-admin-2@example.com" });
  const list = await createPriceList(t.app, admin, [
    { productId: disc.id, unitPrice: 120, breaks: [{ minQty: 10, unitPrice: 110 }] },
  ]);
  const company = await createCompany(t.app, admin, { priceListId: list.id });
  const buyer = await joinCompany(t.app, admin, company.id, "buyer");
  const res = await resolve(
    { text: "QO-BK-3001, 2\nQO-FL-1104, 1\n04465-02220, 12" },
    buyer.cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  // The OE number is the same part: merged or not, each line says the price at its quantity.
  const prices = res.json<QuickOrderResult>().lines.map((l) => [l.number, l.qty, l.unitPrice]);
  expect(prices).toContainEqual(["QO-FL-1104", 1, 4.49]);
  const discLines = prices.filter(([, , p]) => p !== 4.49);
  expect(discLines.every(([, qty, price]) => price === (Number(qty) >= 10 ? 110 : 120))).toBe(true);

  const saved = await call(buyer, "POST", "/api/lists", {
    name: "Fleet kit",
    items: [{ productId: disc.id, qty: 10 }],
  });
  expect(saved.statusCode, saved.body).toBe(201);
  expect(saved.json<SavedList>().lines.map((l) => l.unitPrice)).toEqual([110]);
});
