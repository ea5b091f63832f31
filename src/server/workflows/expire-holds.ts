import { undecidedAmong } from "../approvals/service";
import { advisoryLocks, tryLockFor } from "../db/advisory-locks";
import type { Inventory } from "../inventory/service";
import type { OrderNotifier } from "../orders/notifier";
import { withLines } from "../orders/service";
import { cancelExpired } from "../orders/state";
import type { Clock } from "../clock";

/**
 * The hold sweeper's cancelling: unpaid orders (and those awaiting a company owner's approval)
 * whose hold ran out are cancelled and their stock returns; each customer is told, and one still
 * awaiting approval says so. Safe with several server processes: one sweeper at a time (an
 * advisory lock), and rows locked while they change. Then, as an admin's cancel does, each
 * cancelled order's open payment is cancelled at the gateway (`payments`; issue 49, finding 12),
 * so a payment page left open cannot charge the card for stock that went back on sale (a card
 * charged before that is still taken: `cancelIntentsOf` leaves a paid intent alone).
 */
export function createExpireHolds(
  inventory: Inventory,
  notify?: OrderNotifier,
  payments?: { cancelIntentsOf(orderId: string): Promise<void> },
  /** A moved clock (tests of the approval window); else the database's `now()`. */
  now?: Clock,
) {
  return async function expireHolds(): Promise<number> {
    const cancelledIds = await inventory.transaction(async (stock, tx) => {
      const lock = await tx.execute<{ ok: boolean }>(tryLockFor(advisoryLocks.holdSweeper));
      if (!lock.rows[0]?.ok) return [];
      const expired = await cancelExpired(tx, stock, now?.());
      if (notify && expired.length > 0) {
        const cancelled = await withLines(tx, expired);
        // Those still awaiting a company owner's approval (docs/approvals.md) say so.
        const undecided = await undecidedAmong(
          tx,
          expired.map((r) => r.id),
        );
        for (const [i, order] of cancelled.entries()) {
          await notify.holdExpired(tx, order, expired[i]!.customerName, {
            notApproved: undecided.has(order._id),
          });
        }
      }
      return expired.map((r) => r.id);
    });
    // After the cancel has committed, outside the sweeper's lock: one gateway call per order.
    for (const id of cancelledIds) await payments?.cancelIntentsOf(id);
    return cancelledIds.length;
  };
}
