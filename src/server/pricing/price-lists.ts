import { stringify } from "csv-stringify/sync";
import { and, asc, count, eq, ilike, inArray, or } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber } from "../../contract/constants";
import {
  PRICE_LIST_CSV_HEADER,
  priceListEntryInputSchema,
  priceListMessages,
  type PriceList,
  type PriceListCreate,
  type PriceListEntry,
  type PriceListEntryInput,
  type PriceListImport,
  breaksText,
  parseBreaksText,
} from "../../contract/pricing";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { parseCsv } from "../csv/csv-file";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern as likePattern } from "../db/like";
import { priceListEntries, priceLists } from "./tables";
import { type PriceBreak, centsToUnits, unitsToCents, storedBreaks, wireBreaks } from "../money";
import { products } from "../catalog/tables";
import { conflict, fieldError, HttpError, notFound } from "../errors";
import { isStillReferred, isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { formatCount, plural } from "../../contract/count";

/** Most rows an import reads (a list of every product of a large catalog fits). */
export const MAX_IMPORT_ROWS = 100_000;

/** An entry as stored: integer cents, breaks sorted by minQty. */
export interface StoredEntry {
  unitPriceCents: number;
  breaks: PriceBreak[];
}

/** The checked input of an entry (wire units) as stored (cents, sorted breaks). */
export function toStoredEntry(input: PriceListEntryInput): StoredEntry {
  const entry = priceListEntryInputSchema.parse(input);
  return {
    unitPriceCents: unitsToCents(entry.unitPrice),
    breaks: storedBreaks(entry.breaks),
  };
}

const breaksCell = (breaks: PriceBreak[]) => breaksText(wireBreaks(breaks));

/** `10:11.00|50:9.80` → breaks (wire units); throws a message for people. */
export const parseBreaksCell = parseBreaksText;

const nameTaken = (err: unknown) =>
  isUniqueViolation(err, "price_lists_name_unique")
    ? conflict(priceListMessages.nameTaken)
    : undefined;

/**
 * A company on the list keeps it: the companies' key restricts the delete, also against a
 * company assigned to it while this one ran.
 */
const stillUsed = (err: unknown) =>
  isStillReferred(err, "companies_price_list_id_price_lists_id_fk")
    ? conflict(priceListMessages.inUse)
    : undefined;

/** Price lists and their entries (admin). Every change is in the audit log, in its transaction. */
export function createPriceListService(db: Db, opts: { currency: string }) {
  async function listOrThrow(tx: DbOrTx, id: string) {
    const [row] = await tx.select().from(priceLists).where(eq(priceLists.id, id));
    if (!row) throw notFound(priceListMessages.notFound);
    return row;
  }

  async function view(tx: DbOrTx, id: string): Promise<PriceList> {
    const [row] = await list(tx, { ids: [id] });
    if (!row) throw notFound(priceListMessages.notFound);
    return row;
  }

  async function list(
    tx: DbOrTx,
    q: { ids?: string[]; limit?: number; offset?: number; q?: string } = {},
  ): Promise<PriceList[]> {
    const rows = await tx
      .select({
        id: priceLists.id,
        name: priceLists.name,
        currency: priceLists.currency,
        createdAt: priceLists.createdAt,
        entryCount: sql<number>`(select count(*)::int from price_list_entries e where e.price_list_id = ${priceLists.id})`,
        companyCount: sql<number>`(select count(*)::int from companies c where c.price_list_id = ${priceLists.id})`,
      })
      .from(priceLists)
      .where(
        and(
          q.ids ? inArray(priceLists.id, q.ids) : undefined,
          q.q ? ilike(priceLists.name, likePattern(q.q)) : undefined,
        ),
      )
      .orderBy(asc(sql`lower(${priceLists.name})`), asc(priceLists.id))
      .limit(q.limit ?? 1000)
      .offset(q.offset ?? 0);
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  }

  async function entries(
    tx: DbOrTx,
    id: string,
    q: { limit: number; offset: number; q?: string },
  ): Promise<{ items: PriceListEntry[]; total: number }> {
    await listOrThrow(tx, id);
    const where = and(
      eq(priceListEntries.priceListId, id),
      q.q
        ? or(
            ilike(products.name, likePattern(q.q)),
            ilike(products.partNumberNormalized, likePattern(normalizePartNumber(q.q))),
          )
        : undefined,
    );
    // One after the other: `tx` may be a transaction's one connection.
    const rows = await tx
      .select({
        productId: products.id,
        partNumber: products.partNumber,
        productName: products.name,
        listPriceCents: products.priceCents,
        unitPriceCents: priceListEntries.unitPriceCents,
        breaks: priceListEntries.breaks,
      })
      .from(priceListEntries)
      .innerJoin(products, eq(products.id, priceListEntries.productId))
      .where(where)
      .orderBy(asc(products.partNumber))
      .limit(q.limit)
      .offset(q.offset);
    const [totalRow] = await tx
      .select({ total: count() })
      .from(priceListEntries)
      .innerJoin(products, eq(products.id, priceListEntries.productId))
      .where(where);
    return {
      items: rows.map((r) => ({
        productId: r.productId,
        partNumber: r.partNumber,
        productName: r.productName,
        listPrice: centsToUnits(r.listPriceCents),
        unitPrice: centsToUnits(r.unitPriceCents),
        breaks: r.breaks.map((b) => ({
          minQty: b.minQty,
          unitPrice: centsToUnits(b.unitPriceCents),
        })),
      })),
      total: totalRow?.total ?? 0,
    };
  }

  return {
    async list(q: { limit: number; offset: number; q?: string }) {
      const [items, [totalRow]] = await Promise.all([
        list(db, q),
        db
          .select({ total: count() })
          .from(priceLists)
          .where(q.q ? ilike(priceLists.name, likePattern(q.q)) : undefined),
      ]);
      return { items, total: totalRow?.total ?? 0 };
    },
    get: (id: string) => view(db, id),
    entries: (id: string, q: { limit: number; offset: number; q?: string }) => entries(db, id, q),

    async create(actor: AuditActor, input: PriceListCreate): Promise<PriceList> {
      const currency = input.currency ?? opts.currency;
      if (currency !== opts.currency) {
        throw fieldError("currency", priceListMessages.otherCurrency(opts.currency));
      }
      return transactionAnswering(db, nameTaken, async (tx) => {
        const [row] = await tx
          .insert(priceLists)
          .values({ name: input.name, currency })
          .returning({ id: priceLists.id });
        await recordAdminAction(tx, {
          actor,
          action: "price-list.create",
          target: { type: "price-list", id: row!.id },
          summary: `Created price list ${input.name} (${currency})`,
        });
        return view(tx, row!.id);
      });
    },

    async rename(actor: AuditActor, id: string, name: string): Promise<PriceList> {
      return transactionAnswering(db, nameTaken, async (tx) => {
        const before = await listOrThrow(tx, id);
        await tx.update(priceLists).set({ name }).where(eq(priceLists.id, id));
        await recordAdminAction(tx, {
          actor,
          action: "price-list.rename",
          target: { type: "price-list", id },
          summary: `Renamed price list ${before.name} to ${name}`,
        });
        return view(tx, id);
      });
    },

    async remove(actor: AuditActor, id: string): Promise<void> {
      await transactionAnswering(db, stillUsed, async (tx) => {
        const before = await listOrThrow(tx, id);
        await tx.delete(priceLists).where(eq(priceLists.id, id));
        await recordAdminAction(tx, {
          actor,
          action: "price-list.delete",
          target: { type: "price-list", id },
          summary: `Deleted price list ${before.name}`,
        });
      });
    },

    async putEntry(
      actor: AuditActor,
      id: string,
      productId: string,
      input: PriceListEntryInput,
    ): Promise<PriceListEntry> {
      const entry = toStoredEntry(input);
      return db.transaction(async (tx) => {
        const list = await listOrThrow(tx, id);
        const [product] = await tx
          .select({ partNumber: products.partNumber })
          .from(products)
          .where(eq(products.id, productId));
        if (!product) throw notFound("Product not found");
        await tx
          .insert(priceListEntries)
          .values({ priceListId: id, productId, ...entry })
          .onConflictDoUpdate({
            target: [priceListEntries.priceListId, priceListEntries.productId],
            set: { ...entry, updatedAt: sql`now()` },
          });
        await recordAdminAction(tx, {
          actor,
          action: "price-list.entry.set",
          target: { type: "price-list", id },
          summary: `${list.name}: ${product.partNumber} at ${centsToUnits(entry.unitPriceCents).toFixed(2)}${entry.breaks.length ? `, breaks ${breaksCell(entry.breaks)}` : ""}`,
        });
        const { items } = await entries(tx, id, { limit: 1, offset: 0, q: product.partNumber });
        return items.find((e) => e.productId === productId)!;
      });
    },

    async removeEntry(actor: AuditActor, id: string, productId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const list = await listOrThrow(tx, id);
        const gone = await tx
          .delete(priceListEntries)
          .where(
            and(eq(priceListEntries.priceListId, id), eq(priceListEntries.productId, productId)),
          )
          .returning({ productId: priceListEntries.productId });
        if (gone.length === 0) throw notFound("This product has no price in this list");
        await recordAdminAction(tx, {
          actor,
          action: "price-list.entry.delete",
          target: { type: "price-list", id },
          summary: `${list.name}: removed the price of product ${productId}`,
        });
      });
    },

    /** The list's entries as CSV: `part_number,unit_price,breaks`, by part number. */
    async exportCsv(id: string): Promise<{ name: string; csv: string }> {
      const list = await listOrThrow(db, id);
      const rows = await db
        .select({
          partNumber: products.partNumber,
          unitPriceCents: priceListEntries.unitPriceCents,
          breaks: priceListEntries.breaks,
        })
        .from(priceListEntries)
        .innerJoin(products, eq(products.id, priceListEntries.productId))
        .where(eq(priceListEntries.priceListId, id))
        .orderBy(asc(products.partNumber));
      const csv = stringify(
        rows.map((r) => [
          r.partNumber,
          centsToUnits(r.unitPriceCents).toFixed(2),
          breaksCell(r.breaks),
        ]),
        { header: true, columns: [...PRICE_LIST_CSV_HEADER], record_delimiter: "\r\n" },
      );
      return { name: list.name, csv };
    },

    /**
     * Reads a CSV of entries by part number and writes them all, or nothing: every line's
     * problem is answered at once (400, `fields` keyed "line N"). With `replace`, entries of
     * parts not in the file are removed.
     */
    async importCsv(
      actor: AuditActor,
      id: string,
      input: PriceListImport,
    ): Promise<{ imported: number; removed: number }> {
      const rows = readEntriesCsv(input.csv);
      return db.transaction(async (tx) => {
        const list = await listOrThrow(tx, id);
        const numbers = [...new Set(rows.map((r) => r.normalized))];
        const found = await tx
          .select({ id: products.id, normalized: products.partNumberNormalized })
          .from(products)
          .where(sql`${products.partNumberNormalized} = any(${sql.param(numbers)}::text[])`);
        const byNumber = new Map(found.map((p) => [p.normalized, p.id]));
        const errors: Record<string, string> = {};
        for (const r of rows) {
          if (!byNumber.has(r.normalized))
            errors[`line ${r.line}`] = `Unknown part number ${r.partNumber}`;
        }
        if (Object.keys(errors).length > 0) throw importRefused(errors);
        const values = rows.map((r) => ({
          priceListId: id,
          productId: byNumber.get(r.normalized)!,
          ...r.entry,
        }));
        for (let i = 0; i < values.length; i += 1000) {
          await tx
            .insert(priceListEntries)
            .values(values.slice(i, i + 1000))
            .onConflictDoUpdate({
              target: [priceListEntries.priceListId, priceListEntries.productId],
              set: {
                unitPriceCents: sql`excluded.unit_price_cents`,
                breaks: sql`excluded.breaks`,
                updatedAt: sql`now()`,
              },
            });
        }
        let removed = 0;
        if (input.replace) {
          const kept = values.map((v) => v.productId);
          const gone = await tx
            .delete(priceListEntries)
            .where(
              and(
                eq(priceListEntries.priceListId, id),
                sql`not (${priceListEntries.productId} = any(${`{${kept.join(",")}}`}::uuid[]))`,
              ),
            )
            .returning({ productId: priceListEntries.productId });
          removed = gone.length;
        }
        await recordAdminAction(tx, {
          actor,
          action: "price-list.import",
          target: { type: "price-list", id },
          summary: `${list.name}: imported ${values.length} prices from CSV${input.replace ? `, removed ${removed}` : ""}`,
        });
        return { imported: values.length, removed };
      });
    },
  };
}

export type PriceListService = ReturnType<typeof createPriceListService>;

const importRefused = (fields: Record<string, string>) => {
  const n = Object.keys(fields).length;
  return new HttpError(
    400,
    "invalid_csv",
    `${plural(n, "line has a problem", "lines have problems")}; nothing was imported`,
    Object.fromEntries(Object.entries(fields).slice(0, 100)),
  );
};

interface CsvEntryRow {
  line: number;
  partNumber: string;
  normalized: string;
  entry: StoredEntry;
}

/** Checks a whole file without the database: every line's problem, or the rows. */
export function readEntriesCsv(text: string): CsvEntryRow[] {
  if (text.replace(/^\uFEFF/, "").trim() === "")
    throw importRefused({ "line 1": "The file is empty" });
  const parsed = parseCsv(text);
  if ("message" in parsed) throw importRefused({ [`line ${parsed.line}`]: parsed.message });
  const [header, ...body] = parsed.records;
  const names = header!.record.map((h) => h.trim().toLowerCase());
  if (
    names.length !== PRICE_LIST_CSV_HEADER.length ||
    PRICE_LIST_CSV_HEADER.some((c, i) => names[i] !== c)
  ) {
    throw importRefused({
      "line 1": `The first line must be the header ${PRICE_LIST_CSV_HEADER.join(",")}`,
    });
  }
  if (body.length > MAX_IMPORT_ROWS) {
    throw importRefused({ "line 1": `At most ${formatCount(MAX_IMPORT_ROWS)} lines` });
  }
  const errors: Record<string, string> = {};
  const rows: CsvEntryRow[] = [];
  const firstLine = new Map<string, number>();
  for (const { record, info } of body) {
    const line = info.lines;
    const key = `line ${line}`;
    if (record.length !== PRICE_LIST_CSV_HEADER.length) {
      errors[key] = `Expected ${PRICE_LIST_CSV_HEADER.length} cells, found ${record.length}`;
      continue;
    }
    const [partNumber = "", price = "", breaks = ""] = record.map((c) => c.trim());
    const normalized = normalizePartNumber(partNumber);
    if (!normalized) {
      errors[key] = "Part number is missing";
      continue;
    }
    const earlier = firstLine.get(normalized);
    if (earlier !== undefined) {
      errors[key] = `Part number ${partNumber} is also on line ${earlier}`;
      continue;
    }
    firstLine.set(normalized, line);
    if (!/^\d+(\.\d{1,2})?$/.test(price)) {
      errors[key] = `Unit price "${price}" is not an amount like 12.50`;
      continue;
    }
    let parsedBreaks;
    try {
      parsedBreaks = parseBreaksCell(breaks);
    } catch (err) {
      errors[key] = (err as Error).message;
      continue;
    }
    const checked = priceListEntryInputSchema.safeParse({
      unitPrice: Number(price),
      breaks: parsedBreaks,
    });
    if (!checked.success) {
      errors[key] = checked.error.issues.map((i) => i.message).join("; ");
      continue;
    }
    rows.push({ line, partNumber, normalized, entry: toStoredEntry(checked.data) });
  }
  if (Object.keys(errors).length > 0) throw importRefused(errors);
  if (rows.length === 0) throw importRefused({ "line 2": "The file has a header but no prices" });
  return rows;
}
