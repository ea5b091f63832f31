// An ERP's sync job with the typed client (docs/typed-client.md): it pushes every part's stock
// to the store, then pulls the orders changed since its last run, keeping its place (the cursor)
// in a file. Run it every few minutes:
//
//   PARTSWORKS_URL=https://shop.example.com PARTSWORKS_API_KEY=pw_… \
//     npx tsx clients/typescript/examples/erp-sync.ts stock.json orders-cursor.txt
//
// stock.json is the ERP's export, `[{ "partNumber": "BD-3011", "stock": 12 }, …]`. The key needs
// the scopes inventory:write (the stock) and orders:read (the orders).
import fs from "node:fs/promises";
import { pathToFileURL } from "node:url";
import {
  createPartsworksClient,
  type components,
  type PartsworksClient,
  type PartsworksClientOptions,
  type paths,
} from "../index";

type BulkStock = paths["/api/bulk/stock"]["put"];
/** The store's answer to a stock push: counts and every line's outcome. */
export type BulkStockResult = BulkStock["responses"][200]["content"]["application/json"];
/** 422: some lines had problems and nothing was written (`partial` not asked for). */
type BulkStockRefused = BulkStock["responses"][422]["content"]["application/json"];
type ApiError = components["schemas"]["ApiError"];
type SyncOrdersPage =
  paths["/api/sync/orders"]["get"]["responses"][200]["content"]["application/json"];
/** An order as the admin screens show it. */
export type SyncedOrder = SyncOrdersPage["items"][number];

/** One part's stock in the ERP. */
export interface StockLevel {
  partNumber: string;
  stock: number;
}

/** Most lines one bulk request takes: more parts go in several requests. */
const MAX_LINES_PER_REQUEST = 100_000;

/** A push the store refused whole: the lines with problems, each with its message. */
export class StockRefusedError extends Error {
  constructor(readonly refused: BulkStockRefused) {
    const bad = refused.lines.filter((l) => l.status === "error");
    const shown = bad.slice(0, 5).map((l) => `line ${l.line} ${l.partNumber}: ${l.message}`);
    super([refused.message, ...shown].join("\n"));
  }
}

/**
 * Sets the stock of `levels` in the store (`PUT /api/bulk/stock`, NDJSON), at most 100,000 parts
 * per request, each request all or nothing unless `partial` (then the good lines are written and
 * the bad ones reported in the result). Setting a level is idempotent: a push retried after a
 * lost answer changes nothing more.
 *
 * The OpenAPI document does not describe this route's body (lines of CSV or NDJSON, read as a
 * stream) yet, so the typed client cannot send it: this is a plain fetch, typed with the
 * document's answers.
 */
export async function pushStock(
  store: PartsworksClientOptions,
  levels: StockLevel[],
  opts: { partial?: boolean } = {},
): Promise<BulkStockResult[]> {
  const query: NonNullable<BulkStock["parameters"]["query"]> = {
    partial: opts.partial ? "true" : "false",
  };
  const url = `${store.baseUrl.replace(/\/+$/, "")}/api/bulk/stock?${new URLSearchParams(query)}`;
  const results: BulkStockResult[] = [];
  for (let i = 0; i < levels.length; i += MAX_LINES_PER_REQUEST) {
    const lines = levels.slice(i, i + MAX_LINES_PER_REQUEST);
    const request = new Request(url, {
      method: "PUT",
      headers: {
        ...store.headers,
        Authorization: `Bearer ${store.apiKey}`,
        "Content-Type": "application/x-ndjson",
      },
      body: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    });
    const res = await (store.fetch ?? fetch)(request);
    if (res.ok) {
      results.push((await res.json()) as BulkStockResult);
    } else if (res.status === 422) {
      throw new StockRefusedError((await res.json()) as BulkStockRefused);
    } else {
      const error = (await res.json().catch(() => null)) as ApiError | null;
      throw new Error(`PUT /api/bulk/stock: ${res.status} ${error?.message ?? res.statusText}`);
    }
  }
  return results;
}

/** The cursor kept in `file`; undefined before the first run (start from the first change). */
async function readCursor(file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file, "utf8")).trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Writes the cursor whole or not at all (a crash mid-write leaves the previous one). */
async function writeCursor(file: string, cursor: string): Promise<void> {
  await fs.writeFile(`${file}.tmp`, `${cursor}\n`);
  await fs.rename(`${file}.tmp`, file);
}

/**
 * Hands each order placed or changed since the cursor in `cursorFile` to `handle` (oldest change
 * first; an order changed twice comes twice, so handle it as "save this order by its `_id`"),
 * page by page, keeping the cursor after each page is handled: a job stopped part-way starts
 * again at the page it was on. Answers how many orders were handled.
 */
export async function pullOrders(
  client: PartsworksClient,
  cursorFile: string,
  handle: (order: SyncedOrder) => Promise<void>,
): Promise<number> {
  let cursor = await readCursor(cursorFile);
  let handled = 0;
  for (;;) {
    const { data, error, response } = await client.GET("/api/sync/orders", {
      params: { query: { cursor, limit: 500 } },
    });
    if (error) throw new Error(`GET /api/sync/orders: ${response.status} ${error.message}`);
    for (const order of data.items) await handle(order);
    handled += data.items.length;
    cursor = data.nextCursor;
    await writeCursor(cursorFile, cursor);
    if (!data.hasMore) return handled;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [stockFile, cursorFile = "orders-cursor.txt"] = process.argv.slice(2);
  const baseUrl = process.env.PARTSWORKS_URL;
  const apiKey = process.env.PARTSWORKS_API_KEY;
  if (!stockFile || !baseUrl || !apiKey) {
    console.error(
      "Usage: PARTSWORKS_URL=… PARTSWORKS_API_KEY=… erp-sync.ts <stock.json> [cursor file]",
    );
    process.exit(2);
  }
  const store: PartsworksClientOptions = { baseUrl, apiKey, headers: { "User-Agent": "erp-sync" } };
  const levels = JSON.parse(await fs.readFile(stockFile, "utf8")) as StockLevel[];
  for (const result of await pushStock(store, levels)) {
    const { lines, updated, unchanged } = result.counts;
    console.log(`Stock: ${lines} parts, ${updated} updated, ${unchanged} unchanged`);
  }
  const client = createPartsworksClient(store);
  const pulled = await pullOrders(client, cursorFile, async (order) => {
    // The ERP saves the order by its _id here; this example prints it.
    console.log(`Order ${order.number}: ${order.status}, ${order.customerName}`);
  });
  console.log(`Orders: ${pulled} placed or changed since the last run`);
}
