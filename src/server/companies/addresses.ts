import { and, asc, count, eq } from "drizzle-orm";
import {
  companyAddressInputSchema,
  formatAddress,
  type CompanyAddressInput,
} from "../../contract/addresses";
import {
  companyAddressMessages,
  MAX_COMPANY_ADDRESSES,
  type CompanyAddress,
  type CompanyAddressPatch,
  companyMessages,
} from "../../contract/companies";
import { postalAddressOf, validationError } from "../addresses/service";
import type { Db, DbOrTx } from "../db/database";
import { companies, companyAddresses } from "./tables";
import { notFound, unprocessable } from "../errors";
import { auditCompany, type Caller } from "./service";

type Row = typeof companyAddresses.$inferSelect;

const toCompanyAddress = (row: Row, companyName: string): CompanyAddress => ({
  id: row.id,
  companyId: row.companyId,
  companyName,
  ...postalAddressOf(row),
  formatted: formatAddress(row),
});

/**
 * A company's ship-to addresses (docs/companies.md). Admins (any company) and the
 * company's owners manage them; its buyers and viewers list them; anyone else is told the
 * company does not exist (404), as on the other company routes: the routes' company hooks say
 * who may (`companyMember`, `companyOwner`), the calls here trust them. Changes queue on the
 * company's row (the count limit cannot be raced) and are written to the audit log in their
 * transaction.
 */
export function createCompanyAddressService(db: Db) {
  /** The company's name (404: an admin naming no company). `lock` queues writers on the row. */
  async function companyName(tx: DbOrTx, companyId: string, lock = false): Promise<string> {
    const q = tx
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, companyId));
    const [row] = await (lock ? q.for("update") : q);
    if (!row) throw notFound(companyMessages.notFound);
    return row.name;
  }

  async function owned(tx: DbOrTx, companyId: string, id: string): Promise<Row> {
    const [row] = await tx
      .select()
      .from(companyAddresses)
      .where(and(eq(companyAddresses.id, id), eq(companyAddresses.companyId, companyId)));
    if (!row) throw notFound(companyAddressMessages.notFound);
    return row;
  }

  return {
    /** Oldest first. */
    async list(companyId: string): Promise<CompanyAddress[]> {
      const name = await companyName(db, companyId);
      const rows = await db
        .select()
        .from(companyAddresses)
        .where(eq(companyAddresses.companyId, companyId))
        .orderBy(asc(companyAddresses.createdAt), asc(companyAddresses.id));
      return rows.map((r) => toCompanyAddress(r, name));
    },

    async create(
      caller: Caller,
      companyId: string,
      input: CompanyAddressInput,
    ): Promise<CompanyAddress> {
      return db.transaction(async (tx) => {
        const name = await companyName(tx, companyId, true);
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(companyAddresses)
          .where(eq(companyAddresses.companyId, companyId));
        if (n >= MAX_COMPANY_ADDRESSES) {
          throw unprocessable(companyAddressMessages.tooMany(MAX_COMPANY_ADDRESSES));
        }
        const [row] = await tx
          .insert(companyAddresses)
          .values({
            companyId,
            name: input.name,
            company: input.company,
            line1: input.line1,
            line2: input.line2,
            city: input.city,
            region: input.region,
            postalCode: input.postalCode,
            country: input.country,
            phone: input.phone,
          })
          .returning();
        const added = toCompanyAddress(row!, name);
        await auditCompany(
          tx,
          caller,
          "company.address.create",
          companyId,
          `Added ship-to address ${added.formatted} to ${name}`,
        );
        return added;
      });
    },

    /** Changes some fields; the address as changed is checked whole, as a new one is. */
    async update(
      caller: Caller,
      companyId: string,
      id: string,
      patch: CompanyAddressPatch,
    ): Promise<CompanyAddress> {
      return db.transaction(async (tx) => {
        const name = await companyName(tx, companyId, true);
        const row = await owned(tx, companyId, id);
        const before = toCompanyAddress(row, name);
        const parsed = companyAddressInputSchema.safeParse({ ...before, ...patch });
        if (!parsed.success) throw validationError(parsed.error);
        const [updated] = await tx
          .update(companyAddresses)
          .set(parsed.data)
          .where(eq(companyAddresses.id, id))
          .returning();
        const after = toCompanyAddress(updated!, name);
        await auditCompany(
          tx,
          caller,
          "company.address.update",
          companyId,
          `Changed ship-to address ${before.formatted} → ${after.formatted}`,
        );
        return after;
      });
    },

    /** Orders sent there keep their copy. */
    async remove(caller: Caller, companyId: string, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const name = await companyName(tx, companyId, true);
        const row = await owned(tx, companyId, id);
        await tx.delete(companyAddresses).where(eq(companyAddresses.id, id));
        await auditCompany(
          tx,
          caller,
          "company.address.delete",
          companyId,
          `Removed ship-to address ${toCompanyAddress(row, name).formatted}`,
        );
      });
    },
  };
}

export type CompanyAddressService = ReturnType<typeof createCompanyAddressService>;
