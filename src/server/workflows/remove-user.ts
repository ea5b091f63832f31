import { recordAdminAction, type AuditActor } from "../audit/service";
import { PG, postgresError } from "../db/postgres-errors";
import { unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import { cancelHoldsOf } from "../orders/state";
import { detachReviewsOf } from "../reviews/service";
import { userMessages } from "../../contract/users";
import { deleteUser, lockForRemoval } from "../users/service";

/**
 * An admin removes a user: the unpaid orders are cancelled (stock returned), the sessions and
 * sign-ins go with the account (FK cascade), paid orders stay for the records without an owner
 * (FK set null), reviews stay without an author account; all in one transaction, then the
 * cancelled orders' open payments are ended. Refused for the admin's own account and for the
 * only admin left.
 */
export function createRemoveUser(
  inventory: Inventory,
  payments: { cancelIntentsOf(orderId: string): Promise<void> },
) {
  const removeOnce = (actor: AuditActor, targetId: string) =>
    inventory.transaction(async (stock, tx) => {
      const target = await lockForRemoval(tx, targetId);
      const cancelledOrderIds = (await cancelHoldsOf(tx, stock, targetId, "account_removed")).map(
        (o) => o.id,
      );
      await detachReviewsOf(tx, targetId);
      await deleteUser(tx, targetId);
      await recordAdminAction(tx, {
        actor,
        action: "user.remove",
        target: { type: "user", id: targetId },
        summary: `Removed ${target.name} (${target.email}); ${cancelledOrderIds.length} unpaid orders cancelled`,
      });
      return cancelledOrderIds;
    });

  return async (actor: AuditActor, targetId: string): Promise<{ cancelledOrders: number }> => {
    if (actor.id === targetId) throw unprocessable(userMessages.cannotRemoveSelf);
    // A customer placing an order while being removed can deadlock with us (their order locks
    // the product, then checks our locked user row): Postgres aborts one side; if it is us,
    // trying again sees their order and cancels it too.
    for (let attempt = 1; ; attempt++) {
      try {
        const cancelled = await removeOnce(actor, targetId);
        // Their open payments can no longer be paid (after the commit).
        for (const id of cancelled) await payments.cancelIntentsOf(id);
        return { cancelledOrders: cancelled.length };
      } catch (err) {
        if (attempt >= 3 || postgresError(err)?.code !== PG.deadlockDetected) throw err;
      }
    }
  };
}

export type RemoveUser = ReturnType<typeof createRemoveUser>;
