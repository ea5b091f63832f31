import { and, asc, count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import {
  addressInputSchema,
  addressMessages,
  formatAddress,
  MAX_ADDRESSES,
  type Address,
  type AddressInput,
  type AddressPatch,
} from "../../contract/addresses";
import type { Db, DbOrTx } from "../db/database";
import { addresses } from "./tables";
import { HttpError, notFound, unprocessable } from "../errors";
import { lockCustomer } from "../users/service";

type AddressRow = typeof addresses.$inferSelect;

/** A stored postal address's fields (`postalAddressColumns`), as the API answers them. */
export const postalAddressOf = (row: Omit<Address, "id" | "isDefault" | "formatted">) => ({
  name: row.name,
  company: row.company,
  line1: row.line1,
  line2: row.line2,
  city: row.city,
  region: row.region,
  postalCode: row.postalCode,
  country: row.country,
  phone: row.phone,
});

export function toAddress(row: AddressRow): Address {
  return {
    id: row.id,
    ...postalAddressOf(row),
    isDefault: row.isDefault,
    formatted: formatAddress(row),
  };
}

/** A failed check of a whole address, as the 400 the route schemas give. */
export function validationError(error: z.ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join(".") || "request"] ??= issue.message;
  const message = Object.entries(fields)
    .map(([field, msg]) => `${field}: ${msg}`)
    .join("; ");
  return new HttpError(400, "validation", message, fields);
}

/**
 * A customer's address book: structured delivery addresses, at most `MAX_ADDRESSES`, exactly
 * one of them the default while there are any (the first one added; making another the default
 * moves it; removing the default passes it to the oldest left). Changes queue on the customer's
 * row, so two tabs cannot leave two defaults or none. `changed` is told of the customer as each
 * change commits (this process forgets their default delivery country at once; every process
 * hears NOTIFY `addresses:<user id>`, migration 0095).
 */
export function createAddressService(db: Db, changed: (userId: string) => void = () => {}) {
  /** A change's result, once it is committed and `changed` told. */
  const committed = async <T>(userId: string, change: Promise<T>): Promise<T> => {
    const result = await change;
    changed(userId);
    return result;
  };

  const list = (tx: DbOrTx, userId: string) =>
    tx
      .select()
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id));

  async function owned(tx: DbOrTx, userId: string, id: string): Promise<AddressRow> {
    const [row] = await tx
      .select()
      .from(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)));
    if (!row) throw notFound(addressMessages.notFound);
    return row;
  }

  const clearDefault = (tx: DbOrTx, userId: string) =>
    tx
      .update(addresses)
      .set({ isDefault: false })
      .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));

  return {
    async list(userId: string): Promise<Address[]> {
      return (await list(db, userId)).map(toAddress);
    },

    async create(userId: string, input: AddressInput): Promise<Address> {
      const change = db.transaction(async (tx) => {
        await lockCustomer(tx, userId);
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(addresses)
          .where(eq(addresses.userId, userId));
        if (n >= MAX_ADDRESSES) throw unprocessable(addressMessages.tooMany(MAX_ADDRESSES));
        const isDefault = n === 0 || input.isDefault;
        if (isDefault) await clearDefault(tx, userId);
        const [row] = await tx
          .insert(addresses)
          .values({ ...input, userId, isDefault })
          .returning();
        return toAddress(row!);
      });
      return committed(userId, change);
    },

    /** Changes some fields; the address as changed is checked whole, as a new one is. */
    async update(userId: string, id: string, patch: AddressPatch): Promise<Address> {
      const change = db.transaction(async (tx) => {
        await lockCustomer(tx, userId);
        const row = await owned(tx, userId, id);
        const parsed = addressInputSchema.safeParse({
          ...toAddress(row),
          ...patch,
          isDefault: patch.isDefault ?? row.isDefault,
        });
        if (!parsed.success) throw validationError(parsed.error);
        // The default moves only to another address; it cannot be switched off while it is one.
        const isDefault = row.isDefault || parsed.data.isDefault;
        if (isDefault && !row.isDefault) await clearDefault(tx, userId);
        const [updated] = await tx
          .update(addresses)
          .set({ ...parsed.data, isDefault })
          .where(eq(addresses.id, id))
          .returning();
        return toAddress(updated!);
      });
      return committed(userId, change);
    },

    async remove(userId: string, id: string): Promise<void> {
      const change = db.transaction(async (tx) => {
        await lockCustomer(tx, userId);
        const row = await owned(tx, userId, id);
        await tx.delete(addresses).where(eq(addresses.id, id));
        if (row.isDefault) {
          const [next] = await list(tx, userId);
          if (next) {
            await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, next.id));
          }
        }
      });
      await committed(userId, change);
    },
  };
}

export type AddressService = ReturnType<typeof createAddressService>;
