import { plural } from "../../contract/count";
import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  APPROVAL_SETTINGS_DEFAULTS,
  approvalMessages,
  type Approval,
  type ApprovalDecision,
  type ApprovalListQuery,
  type ApprovalOutcome,
  type ApprovalSettings,
  type ApprovalSettingsInput,
} from "../../contract/approvals";
import {
  orderNumberText,
  orderStatusLabels,
  parseOrderNumber,
  type Order,
} from "../../contract/orders";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { membershipOf } from "../companies/membership";
import type { OrderRulesSource } from "../orders/limits";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { companies, companyMembers } from "../companies/tables";
import { moveHoldWindows } from "../inventory/holds";
import { orderApprovals } from "./tables";
import { orderItems, orders } from "../orders/tables";
import { user } from "../users/tables";
import { conflict, forbidden, notFound } from "../errors";
import type { Inventory } from "../inventory/service";
import { centsToUnits, formatCents } from "../money";
import { toOrder, withLines } from "../orders/service";
import { approveOrder, cancelHoldingOrder, linesOf, lockOrder } from "../orders/state";
import {
  accountTermsOf,
  checkCredit,
  settleOnAccount,
  type AccountInvoiceIssuer,
} from "../terms/account";
import type { TermsMail } from "../terms/mail";
import type { ApprovalMail } from "./mail";
import { approvalSettingsOf, setApprovalSettings, type ApprovalDefaults } from "./settings";
import { type Clock, systemClock } from "../clock";
import { toStoreMinor } from "../pricing/convert";

/**
 * Approvals (docs/approvals.md). A company buyer's order over a spending limit is written by the
 * checkout as `awaiting_approval` (holding its stock as an unpaid order does) and recorded here;
 * an owner of that company approves it (an ordinary unpaid order, its hold restarting now) or
 * declines it (cancelled through the orders' one cancel path, its stock back on sale). Each
 * decision is written once, to the order, the approval row and the audit log, in one
 * transaction with the buyer's email.
 */

/** Who is acting, from the session. */
/** Why a company buyer's order waits for an owner's approval, and the limit it went over. */
export interface ApprovalNeed {
  reason: "order_limit" | "monthly_limit";
  limitCents: number;
}

export interface ApprovalCaller {
  id: string;
  email: string;
  name?: string;
  role: "admin" | "user";
}

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
  const owners = await approversOf(tx, need.companyId, buyer.id);
  await mail.requested(tx, order, {
    companyName: company?.name ?? "",
    buyerName: buyer.name,
    owners,
    reason: need.reason,
    limitCents: need.limitCents,
  });
}

/** The owners of the company who may decide a buyer's order (the buyer aside, if an owner). */
function approversOf(tx: DbOrTx, companyId: string, buyerId: string | null) {
  return tx
    .select({ id: user.id, email: user.email, name: user.name })
    .from(companyMembers)
    .innerJoin(user, eq(user.id, companyMembers.userId))
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.role, "owner"),
        buyerId === null ? undefined : sql`${companyMembers.userId} <> ${buyerId}`,
      ),
    );
}

/** Which of these orders still await an owner's decision. */
export async function undecidedAmong(tx: DbOrTx, orderIds: string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const rows = await tx
    .select({ orderId: orderApprovals.orderId })
    .from(orderApprovals)
    .where(and(inArray(orderApprovals.orderId, orderIds), isNull(orderApprovals.decision)));
  return new Set(rows.map((r) => r.orderId));
}

export function createApprovalService(
  db: Db,
  inventory: Inventory,
  opts: {
    /** The order limits in force (`orders/limits.ts`): an approved order's hold. */
    rules: OrderRulesSource;
    mail?: ApprovalMail;
    /** Net terms: an approved order of a company on account is invoiced at once. */
    invoices?: AccountInvoiceIssuer;
    accountMail?: TermsMail;
    /** "Now" for the approval window's reminders (a test moves it). */
    now?: Clock;
    /**
     * The window and reminder in force until an admin saves settings (APPROVAL_WINDOW_BUSINESS_DAYS,
     * APPROVAL_REMINDER_HOURS); without it, their defaults.
     */
    defaults?: ApprovalDefaults;
  },
) {
  const now = opts.now ?? systemClock;
  const defaults = opts.defaults ?? APPROVAL_SETTINGS_DEFAULTS;
  const waiting = and(isNull(orderApprovals.decision), eq(orders.status, "awaiting_approval"));

  return {
    /** Admin: the approval window and the owners' reminder in force. */
    settings: (): Promise<ApprovalSettings> => approvalSettingsOf(db, defaults),

    /** Admin: sets them, for orders placed and reminders sent from now on (audited). */
    async setSettings(input: ApprovalSettingsInput, actor: AuditActor): Promise<ApprovalSettings> {
      await db.transaction(async (tx) => {
        await setApprovalSettings(tx, input, now());
        await recordAdminAction(tx, {
          actor,
          action: "approval.settings",
          target: { type: "approval", id: "settings" },
          summary: `Set the approval window to ${plural(input.windowBusinessDays, "business day")}, owners reminded ${plural(input.reminderHours, "hour")} before it ends`,
        });
      });
      return approvalSettingsOf(db, defaults);
    },

    /**
     * The orders awaiting approval, oldest first: the company's (its owner's, the route's company
     * hook says), or every company's (null: an admin, read only).
     */
    async list(
      companyId: string | null,
      page: ApprovalListQuery,
    ): Promise<{ items: Approval[]; total: number }> {
      const where = and(
        waiting,
        companyId === null ? undefined : eq(orderApprovals.companyId, companyId),
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
            orderNumber: o.number,
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
     * An owner of the order's company (`companyId`: the caller owns it, the route's company hook
     * says; anyone else was answered 403 there) approves or declines it, once. Another company's
     * order: 404 (not said to exist); an order that is not awaiting approval, or was decided
     * already: 409.
     */
    async decide(
      caller: ApprovalCaller,
      companyId: string,
      orderId: string,
      decision: ApprovalDecision,
      note: string | null,
    ): Promise<ApprovalOutcome> {
      return inventory.transaction(async (stock, tx) => {
        const order = await lockOrder(tx, orderId);
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
          const member = order.userId ? await membershipOf(tx, order.userId) : null;
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
          // The credit limit is in the store's currency: the order counts at its own rate.
          const storeCents = toStoreMinor(order.totalCents, order.exchangeRate);
          await checkCredit(tx, account, storeCents, order);
          const settled = await settleOnAccount(tx, orderId, account, opts.invoices!);
          row = settled.row;
          onAccount = settled.invoice;
          items = await linesOf(tx, [orderId]);
        } else if (decision === "approved") {
          // The hold restarts from the approval, as long as a trusted customer's new order's
          // (the order limits' hold): a company's buyer is trusted (checkout/read.ts `trustedSql`).
          const until = new Date(Date.now() + (await opts.rules.get()).holdMs);
          row = await approveOrder(tx, orderId, until);
          items = await linesOf(tx, [orderId]);
          // Deleting the approved order and ordering again does not renew the hold past this.
          const productIds = items.flatMap((i) => (i.productId ? [i.productId] : []));
          await moveHoldWindows(tx, order.userId, productIds, until);
        } else {
          ({ row, items } = await cancelHoldingOrder(tx, stock, orderId, "declined"));
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
          summary: `${decision === "approved" ? "Approved" : "Declined"} order ${orderNumberText(order.number)} of ${order.orderEmail} for ${company?.name ?? "the company"} (${formatCents(order.totalCents, order.currency)}, ${why}) as the company's owner${note ? `: “${note}”` : ""}`,
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

    /**
     * Reminds the owners of each order awaiting approval whose window ends within the reminder's
     * hours (the admin's settings, or APPROVAL_REMINDER_HOURS while none are saved) that it will
     * be cancelled then, once per order: `reminded_at` is set in the transaction that queues the
     * emails, and a second process's run finds it set. An order placed with less of its window
     * left than that is reminded at once.
     */
    async remindExpiring(): Promise<number> {
      const at = now();
      return db.transaction(async (tx) => {
        const { reminderHours } = await approvalSettingsOf(tx, defaults);
        const beforeMs = Math.round(reminderHours * 3_600_000);
        const due = await tx
          .update(orderApprovals)
          .set({ remindedAt: at })
          .where(
            and(
              isNull(orderApprovals.decision),
              isNull(orderApprovals.remindedAt),
              inArray(
                orderApprovals.orderId,
                sql`(select id from orders where status = 'awaiting_approval'
                      and hold_expires_at > ${at.toISOString()}::timestamptz
                      and hold_expires_at <= ${new Date(at.getTime() + beforeMs).toISOString()}::timestamptz)`,
              ),
            ),
          )
          .returning();
        if (due.length === 0 || !opts.mail) return due.length;
        const rows = await tx
          .select()
          .from(orders)
          .where(
            inArray(
              orders.id,
              due.map((d) => d.orderId),
            ),
          );
        for (const order of await withLines(tx, rows)) {
          const row = rows.find((r) => r.id === order._id)!;
          const approval = due.find((d) => d.orderId === order._id)!;
          const [company] = await tx
            .select({ name: companies.name })
            .from(companies)
            .where(eq(companies.id, approval.companyId));
          await opts.mail.reminder(tx, order, {
            companyName: company?.name ?? "",
            buyerName: row.customerName,
            owners: await approversOf(tx, approval.companyId, row.userId),
            reason: approval.reason,
            limitCents: approval.limitCents,
          });
        }
        return due.length;
      });
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;

/**
 * An approval whose buyer (name or email), company, order number (`PW-100234`, or its id's first
 * characters, with or without "#"), PO reference or one of its parts (name or part number) contains `q`.
 */
function matching(q: string): SQL {
  const pattern = containsPattern(q);
  const orderNumber = q.replace(/^#/, "").toLowerCase();
  return or(
    ilike(orders.customerName, pattern),
    ilike(orders.orderEmail, pattern),
    ilike(companies.name, pattern),
    ilike(orders.poReference, pattern),
    parseOrderNumber(q) !== null ? eq(orders.number, parseOrderNumber(q)!) : undefined,
    /^[0-9a-f-]{4,36}$/.test(orderNumber)
      ? sql`${orders.id}::text like ${`${orderNumber}%`}`
      : undefined,
    sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id}
            and (${orderItems.productName} ilike ${pattern} or ${orderItems.partNumber} ilike ${pattern}))`,
  )!;
}
