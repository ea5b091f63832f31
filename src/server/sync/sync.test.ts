import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { markOrderPaid, unpaidOrders } from "../../../tests/support/invoices";
import { storeForTests } from "../../../tests/support/store";
import type { ApiKeyIssued } from "../../contract/api-keys";
import {
  bulkMessages as say,
  type SyncInvoicesPage,
  type SyncOrdersPage,
} from "../../contract/bulk";
import { issueInvoice } from "../invoices/issue";
import { orders } from "../orders/tables";
import { cursorOf } from "./service";

// Change cursors (docs/bulk-sync.md): orders and invoices changed since a cursor, oldest change
// first, paged; a change made again moves the order to the end; a transaction that commits late
// is never skipped; a cursor this API did not give is a 400.

const ADMIN_EMAIL = "sync-admin@example.com";
const seller = { name: "Sync Seller", address: ["1 Road"], taxId: null, email: null };

const { t, call, admin } = storeForTests({ admin: ADMIN_EMAIL });

const get = (url: string, headers: Record<string, string> = { cookie: admin.cookie }) =>
  t.app.inject({ url: `/api${url}`, headers });

async function page(
  cursor: string | undefined,
  limit = 100,
  what: "orders" | "invoices" = "orders",
): Promise<SyncOrdersPage> {
  const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
  const res = await get(`/sync/${what}?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every order changed after `cursor`, following the pages; and the cursor where it ends. */
async function drain(cursor: string | undefined, limit = 100) {
  const ids: string[] = [];
  let hasMore = true;
  while (hasMore) {
    const p = await page(cursor, limit);
    ids.push(...p.items.map((o) => o._id));
    cursor = p.nextCursor;
    hasMore = p.hasMore;
  }
  return { ids, cursor: cursor! };
}

/**
 * `drain` until `done` holds: a transaction of another test file still running (one PostgreSQL
 * serves them all) keeps the newest changes back until it ends, never for long.
 */
async function drainUntil(
  cursor: string | undefined,
  done: (ids: string[]) => boolean,
): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = [];
  for (;;) {
    const got = await drain(cursor);
    ids.push(...got.ids);
    cursor = got.cursor;
    if (done(ids)) return { ids, cursor };
    await new Promise((r) => setImmediate(r));
  }
}

describe("orders", () => {
  test("pages oldest change first; a changed order comes again at the end; new ones follow", async () => {
    const start = await drainUntil(undefined, () => true);
    const made = await unpaidOrders(t.database.db, 5);
    const first = await drainUntil(start.cursor, (ids) => made.every((id) => ids.includes(id)));
    // Written in one statement: one transaction, in id order.
    expect(first.ids).toEqual([...made].sort());
    // Two at a time.
    const p1 = await page(start.cursor, 2);
    expect(p1.items).toHaveLength(2);
    expect(p1.hasMore).toBe(true);
    expect(p1.items[0]).toMatchObject({
      _id: first.ids[0],
      customerName: "Bulk Buyer",
      status: "unpaid",
      items: [{ productName: "Bulk part", qty: 1 }],
    });
    const paged = await drain(start.cursor, 2);
    expect(paged.ids.slice(0, 5)).toEqual(first.ids);
    // Nothing new: an empty page keeps the place.
    const idle = await page(first.cursor);
    expect(idle).toEqual({ items: [], nextCursor: first.cursor, hasMore: false });
    // One is paid, one is new: both after the cursor, the paid one as it is now.
    const paid = made[2]!;
    await t.database.db.transaction((tx) => markOrderPaid(tx, paid));
    const [fresh] = await unpaidOrders(t.database.db, 1);
    const next = await drainUntil(first.cursor, (ids) => ids.includes(fresh!));
    expect(next.ids).toEqual([paid, fresh]);
    const again = await page(first.cursor, 1);
    expect(again.items[0]).toMatchObject({ _id: paid, status: "paid", paid: true });
  });

  test("a transaction that commits late is not skipped: newer changes wait for it", async () => {
    const start = await drainUntil(undefined, () => true);
    const [early, late] = await unpaidOrders(t.database.db, 2);
    const seen = await drainUntil(start.cursor, (ids) => ids.includes(late!));
    // The early order is changed by a transaction that stays open...
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let changed!: () => void;
    const changedEarly = new Promise<void>((r) => (changed = r));
    const slow = t.database.db.transaction(async (tx) => {
      await tx.update(orders).set({ poReference: "slow" }).where(eq(orders.id, early!));
      changed();
      await gate;
    });
    await changedEarly;
    // ...while the late one is changed and committed after it.
    await t.database.db.update(orders).set({ poReference: "fast" }).where(eq(orders.id, late!));
    const during = await drain(seen.cursor);
    expect(during.ids).not.toContain(late);
    expect(during.ids).not.toContain(early);
    release();
    await slow;
    const after = await drainUntil(seen.cursor, (ids) => ids.includes(late!));
    expect(after.ids).toEqual([early, late]);
  });

  test("a cursor this API did not give, or a bad limit, is a 400", async () => {
    for (const cursor of [
      "not a cursor",
      "bm9wZQ",
      Buffer.from("c1.12.nope").toString("base64url"),
      Buffer.from("c1.99999999999999999999.00000000-0000-0000-0000-000000000000").toString(
        "base64url",
      ),
      "x".repeat(300),
    ]) {
      const res = await get(`/sync/orders?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().message).toContain(say.cursor);
    }
    for (const limit of ["0", "501", "1.5", "many"]) {
      const res = await get(`/sync/invoices?limit=${limit}`);
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().message).toContain(say.limit);
    }
    const good = cursorOf({ xid: "1", id: "00000000-0000-0000-0000-000000000000" });
    expect((await get(`/sync/orders?cursor=${good}`)).statusCode).toBe(200);
  });
});

describe("invoices", () => {
  test("issued invoices, oldest first, as an order's invoice answer; with an orders:read key", async () => {
    const start = await page(undefined, 500, "invoices");
    let cursor = start.nextCursor;
    for (let more = start.hasMore; more;) {
      const p = await page(cursor, 500, "invoices");
      cursor = p.nextCursor;
      more = p.hasMore;
    }
    const made = await unpaidOrders(t.database.db, 2);
    for (const id of made) {
      await t.database.db.transaction(async (tx) => {
        await markOrderPaid(tx, id);
        await issueInvoice(tx, id, seller, new Date());
      });
    }
    const res = await call(admin, "POST", "/api/api-keys", {
      name: "Sync reader",
      scopes: ["orders:read"],
    });
    const key = res.json<ApiKeyIssued>().key;
    let got: SyncInvoicesPage["items"] = [];
    while (got.length < 2) {
      const r = await get(`/sync/invoices?cursor=${cursor}`, { authorization: `Bearer ${key}` });
      expect(r.statusCode, r.body).toBe(200);
      const p = r.json<SyncInvoicesPage>();
      got = got.concat(p.items);
      cursor = p.nextCursor;
    }
    expect(got.map((i) => i.orderId)).toEqual(made);
    expect(got[0]).toMatchObject({
      orderId: made[0],
      number: expect.stringMatching(/^INV-/),
      pdfUrl: `/api/orders/${made[0]}/invoice.pdf`,
    });
  });
});
