import { and, asc, eq } from "drizzle-orm";
import {
  taxMessages,
  type TaxRate,
  type TaxRateImportResult,
  type TaxRateInput,
} from "../../contract/tax";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { taxRates } from "./tables";
import { conflict, HttpError, notFound } from "../errors";
import { readTaxCsv } from "./csv";
import { milliFromPercent, percentFromMilli } from "./rules";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";

type TaxRateRow = typeof taxRates.$inferSelect;

const toTaxRate = (r: TaxRateRow): TaxRate => ({
  id: r.id,
  country: r.country,
  region: r.region,
  postalCode: r.postalCode,
  name: r.name,
  rate: percentFromMilli(r.rateMillipercent),
  appliesToShipping: r.appliesToShipping,
});

/** "US NY 10001": where a rate applies, as the audit log says it. */
const placeOf = (r: { country: string; region: string; postalCode: string }) =>
  [r.country, r.region, r.postalCode].filter(Boolean).join(" ");

/** The 409 when the place already has a rate. */
const placeTaken = (err: unknown) =>
  isUniqueViolation(err, "tax_rates_place_unique") ? conflict(taxMessages.duplicate) : undefined;

/**
 * Admin: tax rates per country, and per region where it has its own. `changed` is told as each
 * change answers (this process's rates kept in memory go at once; other processes hear NOTIFY
 * `markets`, migration 0095).
 */
export function createTaxService(db: Db, changed: () => void = () => {}) {
  const values = (input: TaxRateInput) => ({
    country: input.country,
    region: input.region,
    postalCode: input.postalCode,
    name: input.name,
    rateMillipercent: milliFromPercent(input.rate),
    appliesToShipping: input.appliesToShipping,
  });
  const describe = (input: TaxRateInput) => `${input.name} ${input.rate} % (${placeOf(input)})`;
  /** A change's result, once it is committed and `changed` told. */
  const committed = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    changed();
    return result;
  };

  return {
    async list(): Promise<TaxRate[]> {
      const rows = await db
        .select()
        .from(taxRates)
        .orderBy(asc(taxRates.country), asc(taxRates.region), asc(taxRates.postalCode));
      return rows.map(toTaxRate);
    },

    async create(input: TaxRateInput, actor: AuditActor): Promise<TaxRate> {
      return committed(
        transactionAnswering(db, placeTaken, async (tx) => {
          const [row] = await tx.insert(taxRates).values(values(input)).returning();
          await recordAdminAction(tx, {
            actor,
            action: "tax-rate.create",
            target: { type: "tax-rate", id: row!.id },
            summary: `Added the tax rate ${describe(input)}`,
          });
          return toTaxRate(row!);
        }),
      );
    },

    async replace(id: string, input: TaxRateInput, actor: AuditActor): Promise<TaxRate> {
      return committed(
        transactionAnswering(db, placeTaken, async (tx) => {
          const [row] = await tx
            .update(taxRates)
            .set(values(input))
            .where(eq(taxRates.id, id))
            .returning();
          if (!row) throw notFound(taxMessages.notFound);
          await recordAdminAction(tx, {
            actor,
            action: "tax-rate.update",
            target: { type: "tax-rate", id },
            summary: `Changed the tax rate to ${describe(input)}`,
          });
          return toTaxRate(row);
        }),
      );
    },

    /**
     * Adds or replaces (by place: country, region, postal code) every rate of a CSV, in one
     * transaction: a file with any bad row writes nothing (422 naming each line).
     */
    async importCsv(csv: string, actor: AuditActor): Promise<TaxRateImportResult> {
      const read = readTaxCsv(csv);
      if (read.errors.length > 0) {
        throw new HttpError(422, "rule_broken", read.errors.slice(0, 20).join("; "));
      }
      return committed(
        db.transaction(async (tx) => {
          const rows = await tx
            .insert(taxRates)
            .values(read.rates.map(values))
            .onConflictDoUpdate({
              target: [taxRates.country, taxRates.region, taxRates.postalCode],
              set: {
                name: sql`excluded.name`,
                rateMillipercent: sql`excluded.rate_millipercent`,
                appliesToShipping: sql`excluded.applies_to_shipping`,
              },
            })
            // A row inserted now has xmax 0; a replaced one has the updating transaction's.
            .returning({ added: sql<boolean>`xmax = 0` });
          const added = rows.filter((r) => r.added).length;
          const result = { added, updated: rows.length - added };
          await recordAdminAction(tx, {
            actor,
            action: "tax-rate.import",
            target: { type: "tax-rate", id: "import" },
            summary: `Imported ${rows.length} tax rates from a CSV (${result.added} added, ${result.updated} replaced)`,
          });
          return result;
        }),
      );
    },

    async remove(id: string, actor: AuditActor): Promise<void> {
      await committed(
        db.transaction(async (tx) => {
          const [row] = await tx.delete(taxRates).where(eq(taxRates.id, id)).returning();
          if (!row) throw notFound(taxMessages.notFound);
          await recordAdminAction(tx, {
            actor,
            action: "tax-rate.delete",
            target: { type: "tax-rate", id },
            summary: `Removed the tax rate ${row.name} (${placeOf(row)})`,
          });
        }),
      );
    },
  };
}

export type TaxService = ReturnType<typeof createTaxService>;

/** Each country's own rate (no region, no postal code): what consumers see before checkout. */
export async function readConsumerTaxRates(db: DbOrTx): Promise<ReadonlyMap<string, number>> {
  const rows = await db
    .select({ country: taxRates.country, rate: taxRates.rateMillipercent })
    .from(taxRates)
    .where(and(eq(taxRates.region, ""), eq(taxRates.postalCode, "")));
  return new Map(rows.map((r) => [r.country, r.rate]));
}

/** The country whose rate a VAT-inclusive market's consumers see (`withConsumerTaxRate`). */
const consumerTaxCountry = (countries: readonly string[], countryHint?: string | null) => {
  const hint = countryHint?.toUpperCase();
  return hint && countries.includes(hint) ? hint : countries[0];
};

/**
 * `withConsumerTaxRate` with the countries' own rates given (`readConsumerTaxRates`, kept in
 * memory by the doors: `createRequestMarkets`), so a request reads nothing.
 */
export function withConsumerTaxRateOf<
  M extends { countries: readonly string[]; pricesIncludeTax?: boolean },
>(
  rates: ReadonlyMap<string, number>,
  market: M,
  countryHint?: string | null,
): M & { taxRateMillipercent?: number } {
  if (!market.pricesIncludeTax) return market;
  const country = consumerTaxCountry(market.countries, countryHint);
  return { ...market, taxRateMillipercent: (country ? rates.get(country) : undefined) ?? 0 };
}

/**
 * A market with the VAT rate its consumers' prices include before checkout (docs/tax.md "Prices
 * with VAT included"): for a market whose prices include VAT, the rate of `countryHint` (the
 * country the market was chosen by: a `?market=`/cookie country, the customer's delivery
 * country) when it is one of the market's, else of its first country (alphabetically: Austria's
 * 20 % for the seeded Europe); that country's own rate (no region, no postal code), 0 without
 * one. A market without VAT-inclusive prices is returned as it is (net prices). The door passes
 * the result to the pricing (`inMarket`); at checkout the delivery country's rate decides. The
 * doors take the rates from memory (`withConsumerTaxRateOf`); this reads the one rate.
 */
export async function withConsumerTaxRate<
  M extends { countries: readonly string[]; pricesIncludeTax?: boolean },
>(
  db: DbOrTx,
  market: M,
  countryHint?: string | null,
): Promise<M & { taxRateMillipercent?: number }> {
  if (!market.pricesIncludeTax) return market;
  const country = consumerTaxCountry(market.countries, countryHint);
  if (!country) return { ...market, taxRateMillipercent: 0 };
  const [row] = await db
    .select({ rate: taxRates.rateMillipercent })
    .from(taxRates)
    .where(
      and(eq(taxRates.country, country), eq(taxRates.region, ""), eq(taxRates.postalCode, "")),
    );
  return withConsumerTaxRateOf(new Map(row ? [[country, row.rate]] : []), market, country);
}
