import { Readable } from "node:stream";
import { and, desc, eq, like, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { availableQuantityOf, insertProduct } from "../../../tests/support/factories";
import { openTransaction, sessionsWaitingOnLocks } from "../../../tests/support/row-lock";
import { storeForTests } from "../../../tests/support/store";
import type { ApiKeyIssued, ApiScope } from "../../contract/api-keys";
import {
  bulkMessages as say,
  MAX_BULK_BYTES,
  MAX_BULK_LINES,
  type BulkResult,
} from "../../contract/bulk";
import { adminAuditLog } from "../audit/tables";
import { products } from "../catalog/tables";
import { orderItems, orders } from "../orders/tables";
import { priceListEntries, priceLists } from "../pricing/tables";

// Bulk stock and price sync through the API (docs/bulk-sync.md): the rules of each line (held
// stock, unknown parts, price form, breaks, price lists), all or nothing against partial, a second
// run that changes nothing, the audit row, the caches, API keys, and bad bodies (media type, size,
// header, CSV, NDJSON): clear 4xx answers, never a 500.

const ADMIN_EMAIL = "bulk-admin@example.com";
let n = 0;
/** A fresh part number of this file. */
const pn = () => `BLK-${process.pid}-${++n}`;

const { t, call, admin } = storeForTests({ admin: ADMIN_EMAIL });

const CSV = "text/csv";
const NDJSON = "application/x-ndjson";

function put(
  kind: "stock" | "prices",
  payload: string | Buffer | Readable,
  opts: { type?: string; partial?: boolean; key?: string; headers?: Record<string, string> } = {},
) {
  return t.app.inject({
    method: "PUT",
    url: `/api/bulk/${kind}${opts.partial ? "?partial=true" : ""}`,
    payload,
    headers: {
      ...(opts.type === undefined
        ? { "content-type": CSV }
        : opts.type
          ? { "content-type": opts.type }
          : {}),
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : { cookie: admin.cookie }),
      ...opts.headers,
    },
  });
}

const stockOf = (id: string) => availableQuantityOf(t.database.db, id);
const priceOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!.priceCents;

/** An unpaid order holding `qty` units of the product (as a placement leaves it). */
async function holdUnits(productId: string, qty: number, status: "unpaid" | "paid" = "unpaid") {
  const [order] = await t.database.db
    .insert(orders)
    .values({
      orderEmail: "held@example.com",
      customerName: "Held Buyer",
      totalCents: 100 * qty,
      currency: "USD",
      phone: "5550100",
      address: "1 Dock Road",
      holdExpiresAt: new Date(Date.now() + 3_600_000),
      status,
      ...(status === "paid" && {
        transactionId: `pi_bulk_${productId}_${qty}`,
        paidAt: new Date(),
      }),
    })
    .returning({ id: orders.id });
  await t.database.db.insert(orderItems).values({
    orderId: order!.id,
    line: 1,
    productId,
    productName: "Held part",
    partNumber: "HELD",
    unitPriceCents: 100,
    qty,
  });
}

async function makeKey(scopes: ApiScope[]): Promise<ApiKeyIssued> {
  const res = await call(admin, "POST", "/api/api-keys", {
    name: `Bulk ${scopes.join(" ")} ${++n}`,
    scopes,
    rateLimitPerMinute: 100_000,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiKeyIssued>();
}

describe("stock", () => {
  test("sets the stock by part number; the same file again changes nothing; one audit row each", async () => {
    const a = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 5 });
    const b = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 7 });
    // Part numbers match as the catalog compares them: letters and digits, any case.
    const body = `partNumber,stock\n${a.partNumber.toLowerCase().replace(/-/g, " ")},40\n${b.partNumber},7\n`;
    const first = await put("stock", body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<BulkResult>()).toEqual({
      applied: true,
      counts: { lines: 2, updated: 1, unchanged: 1, errors: 0 },
      lines: [
        { line: 2, partNumber: a.partNumber.toLowerCase().replace(/-/g, " "), status: "updated" },
        { line: 3, partNumber: b.partNumber, status: "unchanged" },
      ],
    });
    expect(await stockOf(a.id)).toBe(40);
    const again = await put("stock", body);
    expect(again.json<BulkResult>().counts).toEqual({
      lines: 2,
      updated: 0,
      unchanged: 2,
      errors: 0,
    });
    expect(await stockOf(a.id)).toBe(40);
    const audit = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "bulk.stock"))
      .orderBy(desc(adminAuditLog.at));
    expect(audit.slice(0, 2).map((r) => r.summary)).toEqual([
      "Bulk stock sync: 2 lines, 0 updated, 2 unchanged, 0 errors",
      "Bulk stock sync: 2 lines, 1 updated, 1 unchanged, 0 errors",
    ]);
    expect(audit[0]!.actorEmail).toBe(ADMIN_EMAIL);
  });

  test("the level is the sum over locations: below what other locations have on sale is the line's error", async () => {
    const p = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 20 });
    await t.database.db.execute(sql`
      with added as (
        insert into stock_locations (code, name, country) values (${`B-${n++}`}, 'Bulk west', 'US')
        returning id)
      insert into location_stock (product_id, location_id, available)
      select ${p.id}, id, 8 from added`);
    const below = await put("stock", `partNumber,stock\n${p.partNumber},7\n`);
    expect(below.statusCode).toBe(422);
    expect(below.json()).toMatchObject({
      lines: [{ line: 2, status: "error", message: say.belowElsewhere(7, 8) }],
    });
    expect(await stockOf(p.id)).toBe(20);
    // 8 at the other location, the home location's share 1.
    const ok = await put("stock", `partNumber,stock\n${p.partNumber},9\n`);
    expect(ok.json<BulkResult>().lines[0]!.status).toBe("updated");
    expect(await stockOf(p.id)).toBe(9);
  });

  test("the units unpaid orders hold stay theirs: a level below them is the line's error", async () => {
    const p = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 20 });
    await holdUnits(p.id, 5);
    // A paid order's units are taken for good: not held.
    await holdUnits(p.id, 3, "paid");
    const below = await put("stock", `partNumber,stock\n${p.partNumber},4\n`);
    expect(below.statusCode).toBe(422);
    expect(below.json()).toMatchObject({
      error: "rule_broken",
      message: say.refused(1),
      applied: false,
      lines: [{ line: 2, status: "error", message: say.belowHeld(4, 5) }],
    });
    expect(await stockOf(p.id)).toBe(20);
    // 12 in the caller's hands, 5 of them held: 7 on sale; sent again, unchanged.
    const ok = await put("stock", `partNumber,stock\n${p.partNumber},12\n`);
    expect(ok.json<BulkResult>().lines[0]!.status).toBe("updated");
    expect(await stockOf(p.id)).toBe(7);
    expect(
      (await put("stock", `partNumber,stock\n${p.partNumber},12\n`)).json<BulkResult>(),
    ).toMatchObject({ lines: [{ status: "unchanged" }] });
    // Exactly the units held: none on sale.
    await put("stock", `partNumber,stock\n${p.partNumber},5\n`);
    expect(await stockOf(p.id)).toBe(0);
  });

  test("an order placed while the request waits for the part's row is counted as held", async () => {
    const p = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 20 });
    // A placement in progress: its order written, the product's row locked to take the stock.
    const placement = await openTransaction(t.database.db, async (tx) => {
      await tx.execute(sql`select id from products where id = ${p.id} for no key update`);
      const [order] = await tx
        .insert(orders)
        .values({
          orderEmail: "racing@example.com",
          customerName: "Racing Buyer",
          totalCents: 400,
          currency: "USD",
          phone: "5550100",
          address: "1 Dock Road",
          holdExpiresAt: new Date(Date.now() + 3_600_000),
        })
        .returning({ id: orders.id });
      await tx.insert(orderItems).values({
        orderId: order!.id,
        line: 1,
        productId: p.id,
        productName: "Racing part",
        partNumber: p.partNumber,
        unitPriceCents: 100,
        qty: 4,
      });
      await tx.execute(sql`update products set available_quantity = available_quantity - 4
                           where id = ${p.id}`);
    });
    const sent = put("stock", `partNumber,stock\n${p.partNumber},30\n`);
    // The bulk request waits for the placement's lock; then the placement commits.
    await sessionsWaitingOnLocks(t.database.db);
    await placement.commit();
    const res = await sent;
    expect(res.statusCode, res.body).toBe(200);
    // 30 in the caller's hands, 4 held by the order placed meanwhile: 26 on sale.
    expect(await stockOf(p.id)).toBe(26);
  });

  test("all or nothing by default; partial=true writes the good lines and reports the bad", async () => {
    const a = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 1 });
    const b = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 1 });
    const unknown = `NOPE-${process.pid}`;
    const body = [
      "partNumber,stock",
      `${a.partNumber},10`,
      `${unknown},3`,
      `${b.partNumber},-2`,
      `${b.partNumber},2.5`,
      `,4`,
      `${a.partNumber},11`,
      `${b.partNumber}`,
      `${b.partNumber},20`,
    ].join("\r\n");
    const refused = await put("stock", body);
    expect(refused.statusCode).toBe(422);
    const lines = [
      { line: 2, partNumber: a.partNumber, status: "updated" },
      { line: 3, partNumber: unknown, status: "error", message: say.unknownPart(unknown) },
      { line: 4, partNumber: b.partNumber, status: "error", message: say.stockForm },
      { line: 5, partNumber: b.partNumber, status: "error", message: say.stockForm },
      { line: 6, partNumber: "", status: "error", message: say.partNumberMissing },
      { line: 7, partNumber: a.partNumber, status: "error", message: say.duplicate(2) },
      { line: 8, partNumber: b.partNumber, status: "error", message: say.cells(2, 1) },
      { line: 9, partNumber: b.partNumber, status: "updated" },
    ];
    expect(refused.json()).toEqual({
      error: "rule_broken",
      message: say.refused(6),
      applied: false,
      counts: { lines: 8, updated: 2, unchanged: 0, errors: 6 },
      lines,
    });
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([1, 1]);
    const partial = await put("stock", body, { partial: true });
    expect(partial.statusCode).toBe(200);
    expect(partial.json()).toEqual({
      applied: true,
      counts: { lines: 8, updated: 2, unchanged: 0, errors: 6 },
      lines,
    });
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([10, 20]);
  });

  test("NDJSON: one object per line; a malformed line is that line's error", async () => {
    const a = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 1 });
    const b = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 1 });
    const body = [
      JSON.stringify({ partNumber: a.partNumber, stock: 9 }),
      `{"partNumber": "${b.partNumber}", "stock": 4`,
      "",
      "[1, 2]",
      JSON.stringify({ partNumber: b.partNumber, qty: 4 }),
      JSON.stringify({ partNumber: b.partNumber, stock: "6" }),
    ].join("\n");
    const refused = await put("stock", body, { type: NDJSON });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<BulkResult>().lines).toEqual([
      { line: 1, partNumber: a.partNumber, status: "updated" },
      { line: 2, partNumber: "", status: "error", message: say.notJson },
      { line: 4, partNumber: "", status: "error", message: say.notJson },
      { line: 5, partNumber: b.partNumber, status: "error", message: say.unknownField("qty") },
      { line: 6, partNumber: b.partNumber, status: "updated" },
    ]);
    const partial = await put("stock", body, { type: `${NDJSON}; charset=utf-8`, partial: true });
    expect(partial.statusCode).toBe(200);
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([9, 6]);
  });

  test("the catalog's cached answer shows the new stock at once", async () => {
    const p = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 3 });
    const read = async () =>
      (await t.app.inject({ url: `/api/products/${p.id}` })).json<{ availableQuantity: number }>()
        .availableQuantity;
    expect(await read()).toBe(3);
    await put("stock", `partNumber,stock\n${p.partNumber},33\n`);
    expect(await read()).toBe(33);
  });

  test("a part whose stock falls below its reorder level records a stock.low webhook event", async () => {
    const hook = await call(admin, "POST", "/api/webhook-endpoints", {
      url: "http://127.0.0.1:9/bulk-hook",
      eventTypes: ["stock.low"],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const falls = await insertProduct(t.database.db, {
      partNumber: pn(),
      availableQuantity: 50,
      reorderLevel: 10,
    });
    const stays = await insertProduct(t.database.db, {
      partNumber: pn(),
      availableQuantity: 50,
      reorderLevel: 10,
    });
    const res = await put(
      "stock",
      `partNumber,stock\n${falls.partNumber},9\n${stays.partNumber},10\n`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const events = await t.database.db.execute<{ body: string }>(
      sql`select body::text as body from webhook_outbox where type = 'stock.low'`,
    );
    const data = events.rows.map((r) => (JSON.parse(r.body) as { data: unknown }).data);
    // One event, of the part that fell below (the products' trigger records it, migration 0061).
    expect(data).toEqual([
      expect.objectContaining({
        productId: falls.id,
        partNumber: falls.partNumber,
        availableQuantity: 9,
        reorderLevel: 10,
      }),
    ]);
  });

  test("an API key with inventory:write sets stock, not prices; the audit row names the key", async () => {
    const p = await insertProduct(t.database.db, { partNumber: pn(), availableQuantity: 3 });
    const key = await makeKey(["inventory:write"]);
    const res = await put("stock", `partNumber,stock\n${p.partNumber},8\n`, { key: key.key });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(p.id)).toBe(8);
    const [row] = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(
        and(eq(adminAuditLog.action, "bulk.stock"), like(adminAuditLog.summary, "%via API key%")),
      )
      .orderBy(desc(adminAuditLog.at))
      .limit(1);
    expect(row!.summary).toContain(key.apiKey.prefix);
    const prices = await put("prices", `partNumber,price\n${p.partNumber},5\n`, { key: key.key });
    expect(prices.statusCode).toBe(403);
  });
});

describe("prices", () => {
  test("list prices and price-list prices by name; rules of form, lists and breaks; a second run changes nothing", async () => {
    const a = await insertProduct(t.database.db, { partNumber: pn(), priceCents: 1000 });
    const b = await insertProduct(t.database.db, {
      partNumber: pn(),
      priceCents: 2000,
      breaks: [{ minQty: 10, unitPriceCents: 1800 }],
    });
    const [list] = await t.database.db
      .insert(priceLists)
      .values({ name: `Trade, Europe ${process.pid}`, currency: "USD" })
      .returning();
    const listName = list!.name;
    const body = [
      "partNumber,price,priceList",
      `${a.partNumber},12.5,`,
      `${a.partNumber},9.99,"${listName.toUpperCase()}"`,
      `${b.partNumber},18.00,`,
      `${b.partNumber},12.345,`,
      `${b.partNumber},0,"${listName}"`,
      `${b.partNumber},abc,`,
      `${b.partNumber},1000000,`,
      `${b.partNumber},15,No such list`,
      `${a.partNumber},13,`,
    ].join("\n");
    const refused = await put("prices", body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<BulkResult>().lines).toEqual([
      { line: 2, partNumber: a.partNumber, status: "updated" },
      { line: 3, partNumber: a.partNumber, priceList: listName.toUpperCase(), status: "updated" },
      { line: 4, partNumber: b.partNumber, status: "error", message: say.breakNotCheaper },
      { line: 5, partNumber: b.partNumber, status: "error", message: say.priceForm },
      {
        line: 6,
        partNumber: b.partNumber,
        priceList: listName,
        status: "error",
        message: say.priceForm,
      },
      { line: 7, partNumber: b.partNumber, status: "error", message: say.priceForm },
      { line: 8, partNumber: b.partNumber, status: "error", message: say.priceTooHigh },
      {
        line: 9,
        partNumber: b.partNumber,
        priceList: "No such list",
        status: "error",
        message: say.unknownPriceList("No such list"),
      },
      { line: 10, partNumber: a.partNumber, status: "error", message: say.duplicatePrice(2) },
    ]);
    expect(await priceOf(a.id)).toBe(1000);
    const good = body.split("\n").slice(0, 3).join("\n");
    const ok = await put("prices", good);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await priceOf(a.id)).toBe(1250);
    const [entry] = await t.database.db
      .select()
      .from(priceListEntries)
      .where(eq(priceListEntries.priceListId, list!.id));
    expect(entry).toMatchObject({ productId: a.id, unitPriceCents: 999 });
    expect((await put("prices", good)).json<BulkResult>().counts).toEqual({
      lines: 2,
      updated: 0,
      unchanged: 2,
      errors: 0,
    });
  });

  test("NDJSON prices: numbers or text, the list named or null", async () => {
    const a = await insertProduct(t.database.db, { partNumber: pn(), priceCents: 1000 });
    const body = [
      JSON.stringify({ partNumber: a.partNumber, price: 11.25 }),
      JSON.stringify({ partNumber: a.partNumber, price: "11.25", priceList: null }),
    ].join("\n");
    const res = await put("prices", body, { type: NDJSON });
    expect(res.json<BulkResult>().lines.map((l) => l.message ?? l.status)).toEqual([
      "updated",
      say.duplicatePrice(1),
    ]);
    const ok = await put("prices", body.split("\n")[0]!, { type: NDJSON });
    expect(ok.statusCode).toBe(200);
    expect(await priceOf(a.id)).toBe(1125);
  });
});

describe("bad bodies: a clear 4xx, never a 500", () => {
  test("a media type other than CSV or NDJSON is a 415 saying what to send", async () => {
    for (const type of ["application/json", "text/plain", ""]) {
      const res = await put("stock", type === "application/json" ? "{}" : "x", { type });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({
        error: "unsupported_media_type",
        message: say.contentType,
      });
    }
  });

  test("a body declared larger than the limit is refused before it is read", async () => {
    const res = await put("stock", "partNumber,stock\n", {
      headers: { "content-length": String(2 * 1024 ** 3) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: "too_large", message: say.tooLarge });
  });

  test("a body that grows past the limit as it streams is cut off with a 413", async () => {
    const chunk = Buffer.from(`${"A".repeat(60)},1\n`.repeat(16 * 1024));
    async function* endless() {
      yield Buffer.from("partNumber,stock\n");
      for (let sent = 0; sent <= MAX_BULK_BYTES * 2; sent += chunk.length) yield chunk;
    }
    const res = await put("stock", Readable.from(endless()));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: "too_large" });
  });

  test("more than 100,000 lines is a 413", async () => {
    const body = `partNumber,stock\n${"X1,1\n".repeat(MAX_BULK_LINES + 1)}`;
    const res = await put("stock", body);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ message: say.tooManyLines });
  });

  test("a wrong header, broken CSV, no lines or text that is not UTF-8 is a 400", async () => {
    const cases: [string | Buffer, string][] = [
      ["part,qty\nA,1\n", say.header("stock")],
      ['partNumber,stock\n"A,1\n', ""],
      ["partNumber,stock\n", say.empty],
      ["", say.empty],
      [Buffer.from([0x70, 0x61, 0xff, 0xfe, 0x0a]), say.notUtf8],
    ];
    for (const [body, message] of cases) {
      const res = await put("stock", body);
      expect(res.statusCode, String(body)).toBe(400);
      if (message) expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(/^Line 2 is not valid CSV/);
    }
    const prices = await put("prices", "partNumber,stock\nA,1\n");
    expect(prices.json().message).toBe(say.header("prices"));
  });

  test("partial takes true or false only", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/bulk/stock?partial=yes",
      payload: "partNumber,stock\nA,1\n",
      headers: { "content-type": CSV, cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(400);
  });
});
