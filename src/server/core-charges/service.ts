import { eq } from "drizzle-orm";
import type { CoreDeposit } from "../../contract/core-charges";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db } from "../db/database";
import { products } from "../catalog/tables";
import { setCoreDeposit } from "../catalog/writes";
import { notFound } from "../errors";
import { centsToUnits, formatCents, unitsToCents } from "../money";

/**
 * Core deposits (docs/core-charges.md): an admin sets or clears a product's deposit per unit.
 * The catalog, the cart and the checkout read it from the product's row; an order snapshots it
 * on its lines; a core return (returns/service.ts, reason `core`) refunds it.
 */
export function createCoreChargeService(db: Db, opts: { currency: string }) {
  return {
    /** Sets (or, with null, clears) one product's core deposit, audited. */
    async setCoreDeposit(
      productId: string,
      deposit: number | null,
      actor: AuditActor,
    ): Promise<CoreDeposit> {
      const cents = deposit === null ? null : unitsToCents(deposit);
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select({ cents: products.coreDepositCents })
          .from(products)
          .where(eq(products.id, productId))
          .for("update");
        if (!before) throw notFound("Product not found");
        const row = await setCoreDeposit(tx, productId, cents);
        const money = (c: number | null) => (c === null ? "none" : formatCents(c, opts.currency));
        await recordAdminAction(tx, {
          actor,
          action: "product.core-deposit",
          target: { type: "product", id: productId },
          summary:
            cents === null
              ? `Removed the core deposit of ${row!.partNumber} ${row!.name} (was ${money(before.cents)})`
              : `Set the core deposit of ${row!.partNumber} ${row!.name} to ${money(cents)} (was ${money(before.cents)})`,
        });
        return { productId, coreDeposit: cents === null ? null : centsToUnits(cents) };
      });
    },
  };
}

export type CoreChargeService = ReturnType<typeof createCoreChargeService>;
