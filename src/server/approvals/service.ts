import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  approvalMessages,
  type Approval,
  type ApprovalDecision,
  type ApprovalListQuery,
  type ApprovalOutcome,
} from "../../contract/approvals";
import { orderStatusLabels, type Order } from "../../contract/orders";
import { recordAdminAction } from "../audit/service";
import { holdTime, type ApprovalNeed } from "../checkout/decide";
import type { HoldLimits } from "../config";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import {
  companies,
  companyMembers,
  holdWindows,
  orderApprovals,
  orderItems,
  orders,
  user,
} from "../db/schema";
import { conflict, forbidden, notFound } from "../errors";
import type { Inventory } from "../inventory/service";
import { centsToUnits, formatCents } from "../money";
import { cancelHoldingOrder, linesOf, toOrder, withLines } from "../orders/service";
import {
  accountTermsOf,
  checkCredit,
  settleOnAccount,
  type AccountInvoiceIssuer,
} from "../terms/account";
import type { AccountMail } from "../terms/mail";
import type { ApprovalMail } from "./mail";

/**
 * Approvals (docs/approvals.md). A company buyer's order over a spending limit is written by the
 * checkout as `awaiting_approval` (holding its stock as an unpaid order does) and recorded here;
 * an owner of that company approves it (an ordinary unpaid order, its hold restarting now) or
 * declines it (cancelled through the orders' one cancel path, its stock back on sale). Each
 * decision is written once, to the order, the approval row and the audit log, in one
 * transaction with the buyer's email.
 */

/** Who is acting, from the session. */
export interface ApprovalCaller {
  id: string;
  email: string;
  name?: string;
  role: "admin" | "user";
}

const orderRef = (id: string) => id.slice(0, 8).toUpperCase();

/**
 * Records that a just-placed order waits for approval and emails the company's owners (the buyer
 * aside, should they be an owner) and the buyer. Called by the checkout in the order's
 * transaction, instead of the "order placed" email.
 */
export async function requestApproval(
  tx: DbOrTx,
  order: Order,
  buyer: { id: string; name: string },
  need: ApprovalNeed & { companyId: string },
  mail: ApprovalMail | undefined,
): Promise<void> {
  await tx.insert(orderApprovals).values({
    orderId: order._id,
    companyId: need.companyId,
    reason: need.reason,
    limitCents: need.limitCents,
  });
  if (!mail) return;
  const [company] = await tx
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, need.companyId));
  const owners = await tx
    .select({ id: user.id, email: user.email, name: user.name })
    .from(companyMembers)
    .innerJoin(user, eq(user.id, companyMembers.userId))
    .where(
      and(
        eq(companyMembers.companyId, need.companyId),
        eq(companyMembers.role, "owner"),
        sql`${companyMembers.userId} <> ${buyer.id}`,
      ),
    );
  await mail.requested(tx, order, {
    companyName: company?.name ?? "",
    buyerName: buyer.name,
    owners,
    reason: need.reason,
    limitCents: need.limitCents,
  });
}

export function createApprovalService(
  db: Db,
  inventory: Inventory,
  opts: {
    holdMs: number;
    limits: HoldLimits;
    mail?: ApprovalMail;
    /** Net terms: an approved order of a company on account is invoiced at once. */
    invoices?: AccountInvoiceIssuer;
    accountMail?: AccountMail;
  },
) {
  /** The caller's company, if they own one; anyone else may not decide (or list) approvals. */
  async function ownedCompany(tx: DbOrTx, caller: ApprovalCaller): Promise<string> {
    const [m] = await tx
      .select({ companyId: companyMembers.companyId, role: companyMembers.role })
      .from(companyMembers)
      .where(eq(companyMembers.userId, caller.id));
    if (!m || m.role !== "owner") throw forbidden(approvalMessages.onlyOwners);
    return m.companyId;
  }

  const waiting = and(isNull(orderApprovals.decision), eq(orders.status, "awaiting_approval"));

  return {
    /**
     * The orders awaiting approval, oldest first: an owner's company's, or every company's for an
     * admin (read only).
     */
    async list(
      caller: ApprovalCaller,
      page: ApprovalListQuery,
    ): Promise<{ items: Approval[]; total: number }> {
      const where = and(
        waiting,
        caller.role === "admin"
          ? undefined
          : eq(orderApprovals.companyId, await ownedCompany(db, caller)),
        page.q ? matching(page.q) : undefined,
      );
      const [rows, [totalRow]] = await Promise.all([
        db
          .select({
            order: orders,
            companyId: orderApprovals.companyId,
            companyName: companies.name,
            reason: orderApprovals.reason,
            limitCents: orderApprovals.limitCents,
            requestedAt: orderApprovals.requestedAt,
          })
          .from(orderApprovals)
          .innerJoin(orders, eq(orders.id, orderApprovals.orderId))
          .innerJoin(companies, eq(companies.id, orderApprovals.companyId))
          .where(where)
          .orderBy(asc(orderApprovals.requestedAt), asc(orderApprovals.orderId))
          .limit(page.limit)
          .offset(page.offset),
        db
          .select({ total: count() })
          .from(orderApprovals)
          .innerJoin(orders, eq(orders.id, orderApprovals.orderId))
          .innerJoin(companies, eq(companies.id, orderApprovals.companyId))
          .where(where),
      ]);
      const full = await withLines(
        db,
        rows.map((r) => r.order),
      );
      return {
        items: rows.map((r, i): Approval => {
          const o = full[i]!;
          return {
            orderId: o._id,
            companyId: r.companyId,
            companyName: r.companyName,
            buyerName: r.order.customerName,
            buyerEmail: r.order.orderEmail,
            reason: r.reason,
            limit: centsToUnits(r.limitCents),
            items: o.items,
            subtotal: o.subtotal,
            shipping: o.shipping,
            tax: o.tax,
            total: o.total,
            currency: o.currency,
            poReference: o.poReference,
            requestedAt: r.requestedAt.toISOString(),
            holdExpiresAt: o.holdExpiresAt,
          };
        }),
        total: totalRow?.total ?? 0,
      };
    },

    /**
     * An owner of the order's company approves or declines it, once. Anyone else: 403 (not an
     * owner, or an admin) or 404 (another company's order: not said to exist); an order that is
     * not awaiting approval, or was decided already: 409.
     */
    async decide(
      caller: ApprovalCaller,
      orderId: string,
      decision: ApprovalDecision,
      note: string | null,
    ): Promise<ApprovalOutcome> {
      if (caller.role === "admin") throw forbidden(approvalMessages.adminsReadOnly);
      return inventory.transaction(async (stock, tx) => {
        const companyId = await ownedCompany(tx, caller);
        const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
        const [approval] = order
          ? await tx
              .select()
              .from(orderApprovals)
              .where(eq(orderApprovals.orderId, orderId))
              .for("update")
          : [];
        if (!order) throw notFound(approvalMessages.notFound);
        if (!approval) {
          // An ordinary order of one of the company's members: it never needed approval.
          const [member] = order.userId
            ? await tx
                .select({ companyId: companyMembers.companyId })
                .from(companyMembers)
                .where(eq(companyMembers.userId, order.userId))
            : [];
          if (member?.companyId !== companyId) throw notFound(approvalMessages.notFound);
          throw conflict(
            approvalMessages.notAwaiting(orderStatusLabels[order.status].toLowerCase()),
          );
        }
        if (approval.companyId !== companyId) throw notFound(approvalMessages.notFound);
        if (approval.decision === "approved") throw conflict(approvalMessages.alreadyApproved);
        if (approval.decision === "declined") throw conflict(approvalMessages.alreadyDeclined);
        if (order.status !== "awaiting_approval") {
          // Its hold ran out (the sweeper cancelled it) or the store cancelled it.
          throw conflict(
            approvalMessages.notAwaiting(orderStatusLabels[order.status].toLowerCase()),
          );
        }
        if (order.userId === caller.id) throw forbidden(approvalMessages.ownOrder);

        let row: typeof order | undefined = order;
        let items;
        let onAccount: Awaited<ReturnType<typeof settleOnAccount>>["invoice"] | null = null;
        // A company on net terms: the approved order is settled on account (credit checked now).
        const account =
          decision === "approved" && opts.invoices
            ? await accountTermsOf(tx, approval.companyId)
            : null;
        if (account) {
          await checkCredit(tx, account, order.totalCents, order.currency);
          const settled = await settleOnAccount(tx, orderId, account, opts.invoices!);
          row = settled.row;
          onAccount = settled.invoice;
          items = await linesOf(tx, [orderId]);
        } else if (decision === "approved") {
          // The hold restarts from the approval, as long as a new order's would.
          const [buyer] = await tx
            .select({ emailVerified: user.emailVerified })
            .from(user)
            .where(eq(user.id, order.userId!));
          const until = new Date(
            Date.now() +
              holdTime({ emailVerified: buyer?.emailVerified ?? false }, opts.limits, opts.holdMs),
          );
          [row] = await tx
            .update(orders)
            .set({ status: "unpaid", holdExpiresAt: until, holdWarnedAt: null })
            .where(eq(orders.id, orderId))
            .returning();
          items = await linesOf(tx, [orderId]);
          // Deleting the approved order and ordering again does not renew the hold past this.
          const productIds = items.flatMap((i) => (i.productId ? [i.productId] : []));
          if (order.userId && productIds.length > 0) {
            await tx
              .update(holdWindows)
              .set({ expiresAt: until })
              .where(
                and(
                  eq(holdWindows.userId, order.userId),
                  inArray(holdWindows.productId, productIds),
                ),
              );
          }
        } else {
          ({ row, items } = await cancelHoldingOrder(tx, stock, orderId));
        }
        await tx
          .update(orderApprovals)
          .set({
            decision,
            decidedBy: caller.id,
            decidedByEmail: caller.email,
            decidedAt: new Date(),
            note,
          })
          .where(eq(orderApprovals.orderId, orderId));
        const decided = toOrder(row!, items);
        const [company] = await tx
          .select({ name: companies.name })
          .from(companies)
          .where(eq(companies.id, companyId));
        const why = approvalMessages.reason(
          approval.reason,
          formatCents(approval.limitCents, order.currency),
        );
        await recordAdminAction(tx, {
          actor: { id: caller.id, email: caller.email },
          action: decision === "approved" ? "order.approve" : "order.decline",
          target: { type: "order", id: orderId },
          summary: `${decision === "approved" ? "Approved" : "Declined"} order ${orderRef(orderId)} of ${order.orderEmail} for ${company?.name ?? "the company"} (${formatCents(order.totalCents, order.currency)}, ${why}) as the company's owner${note ? `: “${note}”` : ""}`,
        });
        const by = caller.name?.trim() || caller.email;
        if (decision === "approved") {
          await opts.mail?.approved(tx, decided, order.customerName, { by, note });
          if (onAccount) await opts.accountMail?.placed(tx, decided, order.customerName, onAccount);
        } else {
          await opts.mail?.declined(tx, decided, order.customerName, { by, note });
        }
        return { decision, note, order: decided };
      });
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;

/**
 * An approval whose buyer (name or email), company, order number (its first characters, with or
 * without "#"), PO reference or one of its parts (name or part number) contains `q`.
 */
function matching(q: string): SQL {
  const pattern = containsPattern(q);
  const orderNumber = q.replace(/^#/, "").toLowerCase();
  return or(
    ilike(orders.customerName, pattern),
    ilike(orders.orderEmail, pattern),
    ilike(companies.name, pattern),
    ilike(orders.poReference, pattern),
    /^[0-9a-f-]{4,36}$/.test(orderNumber)
      ? sql`${orders.id}::text like ${`${orderNumber}%`}`
      : undefined,
    sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id}
            and (${orderItems.productName} ilike ${pattern} or ${orderItems.partNumber} ilike ${pattern}))`,
  )!;
}
