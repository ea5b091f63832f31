import { randomUUID } from "node:crypto";
import {
  BULK_PRICES_HEADER,
  BULK_STOCK_HEADER,
  bulkMessages as say,
  MAX_BULK_PRICE,
  MAX_BULK_STOCK,
  type BulkCounts,
  type BulkKind,
  type BulkLineResult,
  type BulkResult,
} from "../../contract/bulk";
import { normalizePartNumber } from "../../contract/constants";
import { formatCount, pluralCount } from "../../contract/count";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { checkStockLevels, writeStockLevels, type StockLevel } from "../inventory/stock-levels";
import { checkPriceLevels, writePriceLevels, type PriceLevel } from "../pricing/price-levels";
import { readBodyLines, type BodyLine, type BulkFormat } from "./read-lines";

/**
 * Bulk stock and price sync (docs/bulk-sync.md): a body of up to 100,000 lines read as it
 * arrives, each line checked on its own (its form) and then against the catalog in one
 * transaction (its part, the units held, the breaks), set-based: a few statements for the whole
 * body, never one per line. All or nothing unless `partial`; one audit row per request applied.
 * The stock and prices are written by their modules' set-based writes (inventory, pricing).
 */
export interface BulkSyncOptions {
  /** Told after a commit that changed stock, list prices or price-list entries (this process's caches). */
  stockChanged: () => void;
  catalogChanged: () => void;
  pricesChanged: () => void;
}

export interface BulkRequest {
  body: AsyncIterable<Buffer | string>;
  format: BulkFormat;
  partial: boolean;
  actor: AuditActor;
}

/** A line read and checked on its own: its result so far, and what it asks (when well-formed). */
interface Read<T> {
  results: BulkLineResult[];
  /** The well-formed lines, each with its index in `results`. */
  asks: (T & { at: number })[];
}

const FIELDS: Record<BulkKind, readonly string[]> = {
  stock: BULK_STOCK_HEADER,
  prices: BULK_PRICES_HEADER,
};

/** A cell or JSON value as text: strings as they are (trimmed), numbers as written. */
const asText = (v: unknown): string | undefined =>
  typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : undefined;

/** The line's unknown fields (NDJSON), or its missing part number; else its part number. */
function partOf(
  kind: BulkKind,
  fields: Record<string, unknown>,
): { partNumber: string; key: string } | { partNumber: string; problem: string } {
  const partNumber = asText(fields.partNumber) ?? "";
  const unknown = Object.keys(fields).find((f) => !FIELDS[kind].includes(f));
  if (unknown !== undefined) return { partNumber, problem: say.unknownField(unknown) };
  const key = normalizePartNumber(partNumber);
  if (!key) return { partNumber, problem: say.partNumberMissing };
  return { partNumber, key };
}

/** A stock cell or value: a whole number from 0 to MAX_BULK_STOCK, else undefined. */
function stockOf(v: unknown): number | undefined {
  const text = asText(v);
  if (text === undefined || !/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= MAX_BULK_STOCK ? n : undefined;
}

/** A price cell or value in cents: more than 0, at most 2 decimals; else the problem. */
function centsOf(v: unknown): number | string {
  const text = asText(v);
  if (text === undefined) return say.priceForm;
  // A JSON number is written back as JavaScript writes it (12.5, 1e-7): the same test applies.
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return say.priceForm;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  if (cents <= 0) return say.priceForm;
  if (cents >= MAX_BULK_PRICE * 100) return say.priceTooHigh;
  return cents;
}

function blankResult(line: BodyLine, partNumber: string): BulkLineResult {
  return { line: line.line, partNumber, status: "error", message: "" };
}

/** A line read so far: its result (in `results` at `at`), and, when well-formed, its fields and part. */
type LineStart =
  | { result: BulkLineResult; at: number; fields: Record<string, unknown>; key: string }
  | { result: BulkLineResult; at: number; fields?: undefined; key?: undefined };

/**
 * A line's result added to `results`, failed with the line's problem (its form) or its part
 * number's; else its fields and part number's key, for its kind's own checks.
 */
function startLine(kind: BulkKind, l: BodyLine, results: BulkLineResult[]): LineStart {
  const at = results.length;
  const part = l.fields ? partOf(kind, l.fields) : { partNumber: "", problem: "" };
  const result = blankResult(l, part.partNumber);
  results.push(result);
  if ("problem" in l) result.message = l.problem;
  else if ("problem" in part) result.message = part.problem;
  else return { result, at, fields: l.fields, key: part.key };
  return { result, at };
}

/**
 * Where each ask was first made: the line number of an earlier line asking the same `id` (this
 * line then fails as a repeat), else undefined, and this line is the first.
 */
function firstAsks(): (id: string, line: number) => number | undefined {
  const first = new Map<string, number>();
  return (id, line) => {
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, line);
    return earlier;
  };
}

/**
 * A body read as `kind`'s lines: each line started (`startLine`), then `ask` checks what it asks
 * (its fields, a repeat of an earlier line by `earlierAsk`) and answers it, or fails its result
 * and answers undefined.
 */
async function readAsks<T>(
  kind: BulkKind,
  body: AsyncIterable<BodyLine>,
  ask: (
    l: BodyLine,
    start: LineStart,
    earlierAsk: (id: string, line: number) => number | undefined,
  ) => T | undefined,
): Promise<Read<T>> {
  const results: BulkLineResult[] = [];
  const asks: (T & { at: number })[] = [];
  const earlierAsk = firstAsks();
  for await (const l of body) {
    const start = startLine(kind, l, results);
    const asked = ask(l, start, earlierAsk);
    if (asked !== undefined) asks.push({ ...asked, at: start.at });
  }
  return { results, asks };
}

const readStock = (body: AsyncIterable<BodyLine>): Promise<Read<StockLevel>> =>
  readAsks("stock", body, (l, { result, fields, key }, earlierAsk) => {
    if (!fields) return undefined;
    const stock = stockOf(fields.stock);
    if (stock === undefined) {
      result.message = say.stockForm;
      return undefined;
    }
    const earlier = earlierAsk(key, l.line);
    if (earlier !== undefined) {
      result.message = say.duplicate(earlier);
      return undefined;
    }
    return { line: l.line, key, stock };
  });

const readPrices = (body: AsyncIterable<BodyLine>): Promise<Read<PriceLevel>> =>
  readAsks("prices", body, (l, { result, fields, key }, earlierAsk) => {
    const rawList = l.fields?.priceList;
    const priceList = typeof rawList === "string" && rawList.trim() ? rawList.trim() : null;
    if (priceList) result.priceList = priceList;
    if (!fields) return undefined;
    if (rawList !== undefined && rawList !== null && typeof rawList !== "string") {
      result.message = say.unknownPriceList(String(JSON.stringify(rawList)));
      return undefined;
    }
    const cents = centsOf(fields.price);
    if (typeof cents === "string") {
      result.message = cents;
      return undefined;
    }
    const earlier = earlierAsk(`${key}\u0000${priceList?.toLowerCase() ?? ""}`, l.line);
    if (earlier !== undefined) {
      result.message = say.duplicatePrice(earlier);
      return undefined;
    }
    return { line: l.line, key, cents, priceList };
  });

function countsOf(results: readonly BulkLineResult[]): BulkCounts {
  const counts = { lines: results.length, updated: 0, unchanged: 0, errors: 0 };
  for (const r of results) {
    if (r.status === "updated") counts.updated++;
    else if (r.status === "unchanged") counts.unchanged++;
    else counts.errors++;
  }
  return counts;
}

const summaryOf = (what: string, c: BulkCounts, partial: boolean) =>
  `Bulk ${what} sync${partial ? " (partial)" : ""}: ${formatCount(c.lines)} lines, ` +
  `${formatCount(c.updated)} updated, ${formatCount(c.unchanged)} unchanged, ` +
  pluralCount(c.errors, "error");

/** `message` left empty by the reader for a line that then passed: none. */
function finish(results: BulkLineResult[]): void {
  for (const r of results) if (r.status !== "error" || !r.message) delete r.message;
}

/** A kind of sync: its body's header, how its lines are read, and what its audit row says. */
interface SyncKind<T> {
  header: readonly string[];
  optionalTrailing: number;
  read: (body: AsyncIterable<BodyLine>) => Promise<Read<T>>;
  action: string;
  what: string;
}

const STOCK: SyncKind<StockLevel> = {
  header: BULK_STOCK_HEADER,
  optionalTrailing: 0,
  read: readStock,
  action: "bulk.stock",
  what: "stock",
};

const PRICES: SyncKind<PriceLevel> = {
  header: BULK_PRICES_HEADER,
  optionalTrailing: 1,
  read: readPrices,
  action: "bulk.prices",
  what: "price",
};

/**
 * A request read as its kind's lines, then its one transaction: `check` sets each line's outcome
 * against the catalog and gives the changes, which `write` writes (and one audit row records)
 * unless a line failed and the request is not partial. Answers every line's outcome, and what
 * `write` answered (if it ran).
 */
async function syncLines<T, C, W>(
  db: Db,
  req: BulkRequest,
  kind: SyncKind<T>,
  check: (tx: DbOrTx, read: Read<T>) => Promise<C[]>,
  write: (tx: DbOrTx, changes: C[]) => Promise<W>,
): Promise<{ result: BulkResult; written?: W }> {
  const read = await kind.read(
    readBodyLines(req.body, req.format, {
      header: kind.header,
      optionalTrailing: kind.optionalTrailing,
    }),
  );
  const { results } = read;
  let written: W | undefined;
  const applied = await db.transaction(async (tx) => {
    const changes = await check(tx, read);
    const counts = countsOf(results);
    if (counts.errors > 0 && !req.partial) return false;
    written = await write(tx, changes);
    await recordAdminAction(tx, {
      actor: req.actor,
      action: kind.action,
      target: { type: "bulk", id: randomUUID() },
      summary: summaryOf(kind.what, counts, req.partial),
    });
    return true;
  });
  finish(results);
  return { result: { applied, counts: countsOf(results), lines: results }, written };
}

export function createBulkSync(db: Db, opts: BulkSyncOptions) {
  return {
    /** Sets stock levels by part number; answers every line's outcome (docs/bulk-sync.md). */
    async stock(req: BulkRequest): Promise<BulkResult> {
      const { result, written } = await syncLines(
        db,
        req,
        STOCK,
        async (tx, { results, asks }) => {
          const checks = await checkStockLevels(tx, asks);
          const changes: { productId: string; after: number }[] = [];
          checks.forEach((c, i) => {
            const result = results[asks[i]!.at]!;
            if (c.outcome === "unknown") result.message = say.unknownPart(result.partNumber);
            else if (c.outcome === "below-held") {
              result.message = say.belowHeld(asks[i]!.stock, c.held);
            } else if (c.outcome === "below-elsewhere") {
              result.message = say.belowElsewhere(asks[i]!.stock, c.elsewhere);
            } else {
              result.status = c.outcome;
              if (c.outcome === "updated") changes.push({ productId: c.productId, after: c.after });
            }
          });
          return changes;
        },
        // A part whose stock falls below its reorder level records its `stock.low` webhook event
        // in this transaction: the products' trigger does it for every writer (migration 0061).
        writeStockLevels,
      );
      if ((written ?? 0) > 0) opts.stockChanged();
      return result;
    },

    /** Sets list prices and price-list prices by part number (docs/bulk-sync.md). */
    async prices(req: BulkRequest): Promise<BulkResult> {
      const { result, written } = await syncLines(
        db,
        req,
        PRICES,
        async (tx, { results, asks }) => {
          const checks = await checkPriceLevels(tx, asks);
          const changes: Parameters<typeof writePriceLevels>[1][number][] = [];
          checks.forEach((c, i) => {
            const ask = asks[i]!;
            const result = results[ask.at]!;
            if (c.outcome === "unknown-part") result.message = say.unknownPart(result.partNumber);
            else if (c.outcome === "unknown-list") {
              result.message = say.unknownPriceList(ask.priceList!);
            } else if (c.outcome === "break-not-cheaper") result.message = say.breakNotCheaper;
            else {
              result.status = c.outcome;
              if (c.outcome === "updated") changes.push({ target: c.target, cents: c.cents });
            }
          });
          return changes;
        },
        writePriceLevels,
      );
      if (written && written.listPrices > 0) opts.catalogChanged();
      if (written && written.entries > 0) opts.pricesChanged();
      return result;
    },
  };
}

export type BulkSync = ReturnType<typeof createBulkSync>;
