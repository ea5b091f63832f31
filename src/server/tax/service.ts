import { asc, eq } from "drizzle-orm";
import { taxMessages, type TaxRate, type TaxRateInput } from "../../contract/tax";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db } from "../db/database";
import { taxRates } from "../db/schema";
import { conflict, notFound } from "../errors";
import { milliFromPercent, percentFromMilli } from "./rules";
import { isUniqueViolation } from "../db/postgres-errors";

type TaxRateRow = typeof taxRates.$inferSelect;

const toTaxRate = (r: TaxRateRow): TaxRate => ({
  id: r.id,
  country: r.country,
  region: r.region,
  name: r.name,
  rate: percentFromMilli(r.rateMillipercent),
  appliesToShipping: r.appliesToShipping,
});

/** The place already has a rate. */
const placeTaken = (err: unknown) => isUniqueViolation(err, "tax_rates_place_unique");

/** Admin: tax rates per country, and per region where it has its own. */
export function createTaxService(db: Db) {
  const values = (input: TaxRateInput) => ({
    country: input.country,
    region: input.region,
    name: input.name,
    rateMillipercent: milliFromPercent(input.rate),
    appliesToShipping: input.appliesToShipping,
  });
  const describe = (input: TaxRateInput) =>
    `${input.name} ${input.rate} % (${input.country}${input.region ? ` ${input.region}` : ""})`;

  return {
    async list(): Promise<TaxRate[]> {
      const rows = await db
        .select()
        .from(taxRates)
        .orderBy(asc(taxRates.country), asc(taxRates.region));
      return rows.map(toTaxRate);
    },

    async create(input: TaxRateInput, actor: AuditActor): Promise<TaxRate> {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx.insert(taxRates).values(values(input)).returning();
          await recordAdminAction(tx, {
            actor,
            action: "tax-rate.create",
            target: { type: "tax-rate", id: row!.id },
            summary: `Added the tax rate ${describe(input)}`,
          });
          return toTaxRate(row!);
        });
      } catch (err) {
        if (placeTaken(err)) throw conflict(taxMessages.duplicate);
        throw err;
      }
    },

    async replace(id: string, input: TaxRateInput, actor: AuditActor): Promise<TaxRate> {
      try {
        return await db.transaction(async (tx) => {
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
        });
      } catch (err) {
        if (placeTaken(err)) throw conflict(taxMessages.duplicate);
        throw err;
      }
    },

    async remove(id: string, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.delete(taxRates).where(eq(taxRates.id, id)).returning();
        if (!row) throw notFound(taxMessages.notFound);
        await recordAdminAction(tx, {
          actor,
          action: "tax-rate.delete",
          target: { type: "tax-rate", id },
          summary: `Removed the tax rate ${row.name} (${row.country}${row.region ? ` ${row.region}` : ""})`,
        });
      });
    },
  };
}

export type TaxService = ReturnType<typeof createTaxService>;
