import type { Order } from "../../contract/orders";
import type { DbOrTx } from "../db/database";
import type { QueueInsert } from "../mail/mailer";

/**
 * Told of an order's events inside the transaction that makes them, so what it queues (the
 * order emails) commits or rolls back with the change itself.
 */
export interface OrderNotifier {
  /**
   * `delivery`: the window a cart's checkout promised, in words (docs/shipping.md "The promise
   * kept with the order"), said in the email.
   */
  placed(tx: DbOrTx, order: Order, customerName: string, delivery?: string): Promise<void>;
  /** `placed` as an insert of the statement that writes the order (checkout/write.ts). */
  placedInsert(order: Order, customerName: string, delivery?: string): Promise<QueueInsert>;
  /** Paid; with the invoice the payment issued (its number said, its PDF attached). */
  paid(
    tx: DbOrTx,
    order: Order,
    customerName: string,
    invoice?: { id: string; number: string },
  ): Promise<void>;
  shipped(tx: DbOrTx, order: Order, customerName: string): Promise<void>;
  holdExpiring(tx: DbOrTx, order: Order, customerName: string): Promise<void>;
  /** The hold ended: unpaid, or (`notApproved`) still awaiting a company owner's approval. */
  holdExpired(
    tx: DbOrTx,
    order: Order,
    customerName: string,
    opts?: { notApproved?: boolean },
  ): Promise<void>;
  /** An admin cancelled the unpaid order (Manage All Orders, or "Cancel holds"). */
  cancelledByStore(tx: DbOrTx, order: Order, customerName: string): Promise<void>;
}
