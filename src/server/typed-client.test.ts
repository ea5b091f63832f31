import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { placeTestOrder } from "../../tests/support/destination";
import { insertProduct } from "../../tests/support/factories";
import { storeForTests } from "../../tests/support/store";
import {
  createPartsworksClient,
  idempotencyKey,
  type PartsworksClient,
} from "../../clients/typescript";
import {
  pullOrders,
  pushStock,
  StockRefusedError,
  type SyncedOrder,
} from "../../clients/typescript/examples/erp-sync";
import { DOCUMENT_FILE, SCHEMA_FILE, generateClientFiles } from "../../scripts/client-generate";
import type { ApiKeyIssued } from "../contract/api-keys";
import { products } from "./catalog/tables";

// The typed client in clients/typescript/ (docs/typed-client.md): the committed files are what
// `npm run client:generate` makes from the routes as they are now, and the client calls the
// store with its API key.

const root = path.resolve(import.meta.dirname, "../..");

/** Where two texts first differ, as a line number and the two lines; undefined: the same. */
function firstDifference(committed: string, current: string): string | undefined {
  if (committed === current) return undefined;
  const a = committed.split("\n");
  const b = current.split("\n");
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length : i;
  const cut = (s: string | undefined) => (s === undefined ? "(end of file)" : s.slice(0, 160));
  return `line ${at + 1}: committed ${cut(a[at])} | now ${cut(b[at])}`;
}

test("the committed client is the one the routes make now (else: run `npm run client:generate`)", async () => {
  const { document, schema } = await generateClientFiles();
  for (const [file, current] of [
    [DOCUMENT_FILE, document],
    [SCHEMA_FILE, schema],
  ] as const) {
    const committed = await fs.readFile(file, "utf8").catch(() => undefined);
    const difference =
      committed === undefined ? "the file is missing" : firstDifference(committed, current);
    expect(
      difference,
      `${path.relative(root, file)} does not match the routes' OpenAPI document: run \`npm run client:generate\` and commit the result (${difference})`,
    ).toBeUndefined();
  }
}, 120_000);

describe("the client against the store", () => {
  const { t, call, admin, customer } = storeForTests({
    admin: "typed-client-admin@example.com",
    shipsToTestAddress: true,
    customers: { customer: {} },
  });
  let client: PartsworksClient;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    const res = await call(admin, "POST", "/api/api-keys", {
      name: "ERP",
      scopes: ["orders:read", "inventory:write"],
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}/`;
    apiKey = res.json<ApiKeyIssued>().key;
    client = createPartsworksClient({ baseUrl, apiKey });
  });

  test("a key-scoped route answers the key's typed data", async () => {
    const { data, error, response } = await client.GET("/api/orders/all", {
      params: { query: { limit: 5 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(Array.isArray(data)).toBe(true);
  });

  test("a route outside the key's scopes is refused, the refusal typed as { error, message }", async () => {
    const { data, error, response } = await client.GET("/api/users", {});
    expect(data).toBeUndefined();
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  test("another key is refused with 401", async () => {
    const stranger = createPartsworksClient({ baseUrl, apiKey: "pw_AAAAAAAA_nope" });
    const { error, response } = await stranger.GET("/api/orders/all", {});
    expect(response.status).toBe(401);
    expect(error?.message).toEqual(expect.any(String));
  });

  test("it sends the key as a bearer token and an Idempotency-Key when asked", async () => {
    const seen: Request[] = [];
    const spy = createPartsworksClient({
      baseUrl: "https://shop.example.com/",
      apiKey: "pw_12345678_secret",
      headers: { "User-Agent": "erp-sync" },
      fetch: async (request) => {
        seen.push(request);
        return Response.json([], { status: 200 });
      },
    });
    await spy.GET("/api/orders/all", { headers: idempotencyKey("attempt-1") });
    const [request] = seen;
    expect(request?.url).toBe("https://shop.example.com/api/orders/all");
    expect(request?.headers.get("authorization")).toBe("Bearer pw_12345678_secret");
    expect(request?.headers.get("idempotency-key")).toBe("attempt-1");
    expect(request?.headers.get("user-agent")).toBe("erp-sync");
    expect(Object.values(idempotencyKey())[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => idempotencyKey("é")).toThrow(/printable ASCII/);
  });

  test("the ERP example pushes stock by part number, all or nothing", async () => {
    const part = await insertProduct(t.database.db, { availableQuantity: 100 });
    const [result] = await pushStock({ baseUrl, apiKey }, [
      { partNumber: part.partNumber!, stock: 42 },
    ]);
    expect(result).toMatchObject({ applied: true, counts: { lines: 1, updated: 1, errors: 0 } });
    const [row] = await t.database.db.select().from(products).where(eq(products.id, part.id));
    expect(row?.availableQuantity).toBe(42);

    const refused = await pushStock({ baseUrl, apiKey }, [
      { partNumber: part.partNumber!, stock: 7 },
      { partNumber: "NO-SUCH-PART", stock: 1 },
    ]).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(StockRefusedError);
    expect(String(refused)).toContain("NO-SUCH-PART");
    const [still] = await t.database.db.select().from(products).where(eq(products.id, part.id));
    expect(still?.availableQuantity).toBe(42);
  });

  test("the ERP example pulls the orders since its cursor, kept in a file", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "erp-sync-"));
    try {
      const cursorFile = path.join(dir, "orders-cursor.txt");
      const part = await insertProduct(t.database.db, { minimumOrder: 1 });
      const placed = await placeTestOrder(t.app, customer, part.id, 1);
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = placed.json<{ order: { _id: string } }>().order._id;

      // A page lists only changes older than every transaction still running in the database
      // cluster (docs/bulk-sync.md), and other test files share this one: the order comes once
      // theirs have ended.
      const seen: SyncedOrder[] = [];
      await vi.waitFor(
        async () => {
          await pullOrders(client, cursorFile, async (order) => void seen.push(order));
          expect(seen.map((o) => o._id)).toContain(orderId);
        },
        { timeout: 60_000, interval: 250 },
      );
      const cursor = (await fs.readFile(cursorFile, "utf8")).trim();
      expect(cursor).not.toBe("");

      // The next run starts where this one ended: nothing new, the same place kept.
      const again: SyncedOrder[] = [];
      expect(await pullOrders(client, cursorFile, async (o) => void again.push(o))).toBe(0);
      expect(again).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
