import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import {
  EXAMPLE_PRICE_CENTS,
  marketInputSchema,
  marketMessages as msg,
  rateWords,
  roundingWords,
  type Market,
  type MarketInput,
  type MarketValues,
} from "../../contract/markets";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { isUniqueViolation } from "../db/postgres-errors";
import { conflict, fieldError, notFound } from "../errors";
import { centsToUnits } from "../money";
import { convertMinor } from "./convert";
import { marketCountries, markets } from "./tables";

/**
 * Markets (docs/pricing.md "Markets and currencies"): the admin keeps them here (every change in
 * the audit log, in its own transaction); the pricing module alone converts with them
 * (`convert.ts`). The default market is the store's currency at rate 1, always active.
 */
export function createMarketService(db: Db, opts: { currency: string }) {
  async function read(tx: DbOrTx, where?: { id?: string; activeOnly?: boolean }) {
    const rows = await tx
      .select()
      .from(markets)
      .where(
        and(
          where?.id ? eq(markets.id, where.id) : undefined,
          where?.activeOnly ? eq(markets.active, true) : undefined,
        ),
      )
      // The default first, then by name.
      .orderBy(desc(markets.isDefault), asc(markets.name));
    const countries = await tx
      .select()
      .from(marketCountries)
      .where(
        rows.length > 0
          ? inArray(
              marketCountries.marketId,
              rows.map((r) => r.id),
            )
          : undefined,
      )
      .orderBy(asc(marketCountries.country));
    return rows.map((r): Market => ({
      id: r.id,
      code: r.code,
      name: r.name,
      currency: r.currency,
      countries: countries.filter((c) => c.marketId === r.id).map((c) => c.country),
      pricesIncludeTax: r.pricesIncludeTax,
      rate: Number(r.rate),
      rounding: r.rounding,
      active: r.active,
      isDefault: r.isDefault,
      example: {
        storePrice: centsToUnits(EXAMPLE_PRICE_CENTS),
        price: centsToUnits(convertMinor(EXAMPLE_PRICE_CENTS, Number(r.rate), r.rounding)),
      },
    }));
  }

  async function oneOrThrow(tx: DbOrTx, id: string): Promise<Market> {
    const [market] = await read(tx, { id });
    if (!market) throw notFound(msg.notFound);
    return market;
  }

  /** 409 with the market's name when one of `countries` belongs to another market already. */
  async function countriesFree(tx: DbOrTx, countries: string[], marketId?: string) {
    const [taken] = await tx
      .select({ country: marketCountries.country, name: markets.name })
      .from(marketCountries)
      .innerJoin(markets, eq(markets.id, marketCountries.marketId))
      .where(
        and(
          inArray(marketCountries.country, countries),
          marketId ? ne(marketCountries.marketId, marketId) : undefined,
        ),
      )
      .orderBy(asc(marketCountries.country))
      .limit(1);
    if (taken) {
      const message = msg.countryTaken(taken.country, taken.name);
      throw conflict(message, "countries");
    }
  }

  async function writeCountries(tx: DbOrTx, marketId: string, countries: string[]) {
    await tx.delete(marketCountries).where(eq(marketCountries.marketId, marketId));
    await tx.insert(marketCountries).values(countries.map((country) => ({ country, marketId })));
  }

  const taken = (err: unknown) => {
    if (isUniqueViolation(err, "markets_code_unique")) {
      return conflict(msg.codeTaken, "code");
    }
    if (isUniqueViolation(err, "markets_name_unique")) {
      return conflict(msg.nameTaken, "name");
    }
    return undefined;
  };

  /**
   * Two admins gave the same country to two markets at once: the second's insert met the first's
   * row. Its refusal names the country and the market that has it now, as the check would have.
   */
  async function raced(err: unknown, countries: string[], marketId?: string) {
    if (!isUniqueViolation(err, "market_countries_pkey")) return err;
    try {
      await countriesFree(db, countries, marketId);
    } catch (named) {
      return named;
    }
    return conflict(msg.countries, "countries");
  }

  /** What the audit log says of a market: "EU Europe, EUR at 1 USD = 0.92 EUR, to the cent, …". */
  const summary = (m: Omit<Market, "id" | "isDefault" | "example">) =>
    `${m.code} ${m.name}: ${rateWords(opts.currency, m)}, ${roundingWords[m.rounding].toLowerCase()}, ` +
    `${m.pricesIncludeTax ? "VAT included for consumers" : "net prices"}, ` +
    `${m.active ? "active" : "off"}, countries ${m.countries.join(" ")}`;

  const columns = (v: MarketValues) => ({
    code: v.code,
    name: v.name,
    currency: v.currency,
    pricesIncludeTax: v.pricesIncludeTax,
    rate: v.rate,
    rounding: v.rounding,
    active: v.active,
  });

  return {
    /** Every market (admins), or the active ones (everyone else: a picker's choices). */
    list: (all: boolean) => read(db, { activeOnly: !all }),

    async create(actor: AuditActor, input: MarketInput): Promise<Market> {
      const values = marketInputSchema.parse(input);
      try {
        return await db.transaction(async (tx) => {
          await countriesFree(tx, values.countries);
          const [row] = await tx
            .insert(markets)
            .values(columns(values))
            .returning({ id: markets.id });
          await writeCountries(tx, row!.id, values.countries);
          const saved = await oneOrThrow(tx, row!.id);
          await recordAdminAction(tx, {
            actor,
            action: "market.create",
            target: { type: "market", id: saved.id },
            summary: `Created market ${summary(saved)}`,
          });
          return saved;
        });
      } catch (err) {
        throw taken(err) ?? (await raced(err, values.countries));
      }
    },

    /** A market replaced by what the same form gives; the default stays the store's currency at 1. */
    async update(actor: AuditActor, id: string, input: MarketInput): Promise<Market> {
      const values = marketInputSchema.parse(input);
      try {
        return await db.transaction(async (tx) => {
          const before = await oneOrThrow(tx, id);
          if (before.isDefault) {
            if (values.currency !== opts.currency) {
              throw fieldError("currency", msg.defaultCurrency(opts.currency));
            }
            if (values.rate !== 1) throw fieldError("rate", msg.defaultCurrency(opts.currency));
            if (!values.active) throw fieldError("active", msg.defaultActive);
          }
          await countriesFree(tx, values.countries, id);
          await tx.update(markets).set(columns(values)).where(eq(markets.id, id));
          await writeCountries(tx, id, values.countries);
          const after = await oneOrThrow(tx, id);
          await recordAdminAction(tx, {
            actor,
            action: "market.update",
            target: { type: "market", id },
            summary: `Changed market ${summary(before)} → ${summary(after)}`,
          });
          return after;
        });
      } catch (err) {
        throw taken(err) ?? (await raced(err, values.countries, id));
      }
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
