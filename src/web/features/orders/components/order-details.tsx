import { discountLineLabel } from "#contract/discount-codes";
import { vatIncludedWords } from "#contract/tax";
import { Fragment } from "react";
import { Link } from "../../../components/link";
import type { AdminOrderDetail, Order } from "#contract/orders";
import { paths } from "#contract/paths";
import { paymentWords } from "#contract/payment-words";
import { formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { OrderInvoice } from "./invoice-link";
import { OrderAgainButton } from "./order-again-button";
import { OrderStatusBadge } from "./order-status-badge";
import { ShipmentTracking } from "./shipment-tracking";

const historyLabels: Record<AdminOrderDetail["history"][number]["status"], string> = {
  placed: "Placed",
  paid: "Paid",
  shipped: "Shipped",
  cancelled: "Cancelled",
};

/**
 * One order: its confirmation for the customer (what happens next), and for an admin the full
 * record (customer, payments, history).
 */
export function OrderDetails({
  order,
  detail,
  onBackorder = 0,
  promised,
}: {
  order: Order;
  detail?: AdminOrderDetail;
  /** Units still waiting for supply (the order's shipments say): the next steps say so. */
  onBackorder?: number;
  /**
   * The window promised at checkout, while it stands: "Promised at checkout: arrives 9–11 Dec
   * 2026 · ships from Chicago warehouse" (docs/shipping.md "The promise kept with the order").
   */
  promised?: string | null;
}) {
  const money = (n: number) => formatPrice(n, order.currency);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">Order {formatOrderNumber(order)}</h1>
        <OrderStatusBadge order={order} />
        {!detail && order.status !== "unpaid" && order.status !== "awaiting_approval" && (
          <OrderAgainButton order={order} />
        )}
      </div>

      {!detail && <NextSteps order={order} onBackorder={onBackorder} promised={promised} />}

      <section aria-labelledby="lines-heading" className="flex flex-col gap-2">
        <h2 id="lines-heading" className="text-lg font-bold">
          Parts
        </h2>
        <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
          <table className="table table-sm sm:table-md">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col" className="text-right">
                  Qty
                </th>
                <th scope="col" className="text-right">
                  Unit price
                </th>
                <th scope="col" className="text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((line, i) => (
                <Fragment key={i}>
                  <tr data-testid="order-line">
                    <th scope="row" className="font-normal">
                      {line.productName}
                      {line.partNumber && (
                        <span className="block text-xs text-base-content/75">
                          {line.partNumber}
                        </span>
                      )}
                      {line.vehicle && (
                        <span className="block text-xs" data-testid="order-line-vehicle">
                          For: {line.vehicle}
                        </span>
                      )}
                    </th>
                    <td className="text-right">{line.qty}</td>
                    <td className="text-right">{money(line.unitPrice)}</td>
                    <td className="text-right">{money(line.lineTotal)}</td>
                  </tr>
                  {line.coreDeposit > 0 && (
                    // A core deposit is its own line, untaxed (docs/core-charges.md).
                    <tr data-testid="order-core-deposit">
                      <th scope="row" className="font-normal">
                        Core deposit: {line.productName}
                        <span className="block text-xs text-base-content/75">
                          Refunded when the old part comes back (a core return)
                        </span>
                      </th>
                      <td className="text-right">{line.qty}</td>
                      <td className="text-right">{money(line.coreDeposit)}</td>
                      <td className="text-right">{money(line.coreDeposit * line.qty)}</td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
            <tfoot>
              {(order.shipping > 0 ||
                order.tax > 0 ||
                order.shippingMethod ||
                order.taxNote ||
                order.discount) && (
                <>
                  <TotalRow label="Subtotal" testId="order-subtotal">
                    {money(order.subtotal)}
                  </TotalRow>
                  {order.discount && (
                    <TotalRow
                      label={discountLineLabel(order.discount.code)}
                      testId="order-discount"
                    >
                      {`−${money(order.discount.amount)}`}
                    </TotalRow>
                  )}
                  <TotalRow
                    label={`Shipping${order.shippingMethod ? ` (${order.shippingMethod})` : ""}`}
                    testId="order-shipping"
                  >
                    {money(order.shipping)}
                  </TotalRow>
                  {!order.pricesIncludeTax && (
                    <TotalRow
                      label={order.taxName ? `${order.taxName} (${order.taxRate} %)` : "Tax"}
                      testId="order-tax"
                    >
                      {money(order.tax)}
                    </TotalRow>
                  )}
                </>
              )}
              <tr>
                <th scope="row" colSpan={3} className="text-right text-base">
                  Total
                </th>
                <td className="text-right text-base font-bold" data-testid="order-total">
                  {money(order.total)}
                </td>
              </tr>
              {order.pricesIncludeTax && (
                // Gross prices: the VAT they contain, not added (docs/tax.md).
                <tr>
                  <td
                    colSpan={4}
                    className="text-right text-sm text-base-content/75"
                    data-testid="order-tax-included"
                  >
                    {vatIncludedWords.total(order.taxRate ?? 0, money(order.tax))}
                  </td>
                </tr>
              )}
            </tfoot>
          </table>
          {order.taxNote && (
            <p className="mt-2 text-sm" data-testid="order-tax-note">
              {order.taxNote}
              {order.buyerTaxId && (
                <span className="block text-xs text-base-content/75">
                  Buyer's tax id: {order.buyerTaxId}
                </span>
              )}
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="delivery-heading" className="grid gap-6 md:grid-cols-2">
        <div className="flex flex-col gap-1">
          <h2 id="delivery-heading" className="text-lg font-bold">
            Delivery
          </h2>
          {detail && (
            <p>
              {detail.customerName} · <span className="break-all">{order.orderEmail}</span>
            </p>
          )}
          <p className="whitespace-pre-line" data-testid="order-address">
            {order.Address}
          </p>
          <p>{order.phonrNo}</p>
          {order.poReference && <p>Purchase order: {order.poReference}</p>}
          <ShipmentTracking order={order} />
        </div>
        <div className="flex flex-col gap-1">
          <h2 className="text-lg font-bold">Payment</h2>
          {order.account || order.warrantyClaim ? (
            <p data-testid="order-payment">{paymentWords(order).line}</p>
          ) : order.transactionId ? (
            <p className="break-all">
              Paid {order.paidAt && formatDateTime(order.paidAt)} · transaction id{" "}
              <span className="font-mono">{order.transactionId}</span>
            </p>
          ) : (
            <p>Not paid yet.</p>
          )}
          <OrderInvoice order={order} />
          {detail && detail.payments.length > 0 && (
            <ul className="text-sm text-base-content/80">
              {detail.payments.map((p) => (
                <li key={p.transactionId} className="break-all">
                  {p.gateway} · <span className="font-mono">{p.transactionId}</span> · {p.status} ·{" "}
                  {formatPrice(p.amount, p.currency)}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      {detail && (
        <section aria-labelledby="history-heading" className="flex flex-col gap-1">
          <h2 id="history-heading" className="text-lg font-bold">
            History
          </h2>
          <ol className="text-sm">
            {detail.history.map((h) => (
              <li key={h.status}>
                <span className="font-medium">{historyLabels[h.status]}</span>{" "}
                {formatDateTime(h.at)}
              </li>
            ))}
          </ol>
          <Link to={paths.manageOrders} className="link mt-2 link-primary">
            Back to Manage All orders
          </Link>
        </section>
      )}
    </div>
  );
}

/** A line of the order's foot before its total (subtotal, shipping, tax): what, then how much. */
function TotalRow({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: string;
}) {
  return (
    <tr>
      <th scope="row" colSpan={3} className="text-right font-normal">
        {label}
      </th>
      <td className="text-right" data-testid={testId}>
        {children}
      </td>
    </tr>
  );
}

/** What the customer does or can expect next. */
function NextSteps({
  order,
  onBackorder,
  promised,
}: {
  order: Order;
  onBackorder: number;
  promised?: string | null;
}) {
  // What leaves now: everything, or what is in stock while the rest waits (docs/inventory.md).
  const sending =
    onBackorder > 0
      ? "We send what is in stock to the address below; the parts on backorder follow when they arrive (their dates are under Shipments);"
      : "We pack your parts and send them to the address below;";
  return (
    <div className="alert flex flex-col items-start gap-2" role="status">
      {order.status === "unpaid" && (
        <>
          <p>
            Your order is placed. We hold the parts for you until{" "}
            <strong>{formatDateTime(order.holdExpiresAt)}</strong>; pay by card to confirm it.
          </p>
          <div className="flex flex-wrap gap-2">
            <Link to={paths.payment.to(order._id)} className="btn btn-primary">
              Pay {formatPrice(order.total, order.currency)}
            </Link>
            <Link to={paths.myItems} className="btn btn-ghost">
              My Items
            </Link>
          </div>
        </>
      )}
      {order.status === "awaiting_approval" && (
        <>
          <p>
            Your order is over your spending limit, so it was sent to your company's owners for
            approval. We hold the parts until <strong>{formatDateTime(order.holdExpiresAt)}</strong>
            ; you can pay once it is approved, and we email you their answer.
          </p>
          <Link to={paths.myItems} className="btn btn-ghost">
            My Items
          </Link>
        </>
      )}
      {order.status === "paid" && order.account && !order.account.settled && (
        <p>
          <strong>{paymentWords(order).line}</strong>: pay it by bank transfer, quoting the invoice
          number. {sending}{" "}
          <Link to={paths.myItems} className="link">
            My Items
          </Link>{" "}
          shows when they ship.
        </p>
      )}
      {order.status === "paid" &&
        !(order.account && (!order.account.settled || order.account.creditedInFull)) && (
          <p>
            Thank you: your payment is received. {sending}{" "}
            <Link to={paths.myItems} className="link">
              My Items
            </Link>{" "}
            shows when they ship.
          </p>
        )}
      {promised && (
        <p className="font-medium" data-testid="delivery-promise">
          {promised}
        </p>
      )}
      {order.status === "shipped" && (
        <p>
          Your parts are on their way: shipped {order.shippedAt && formatDateTime(order.shippedAt)}.
        </p>
      )}
      {order.status === "cancelled" && (
        <p data-testid="cancelled-words">
          {cancelledWords(order)}{" "}
          <Link to={paths.allProducts} className="link">
            Browse all products
          </Link>
        </p>
      )}
    </div>
  );
}

/**
 * Why a cancelled order was cancelled and, when it was paid, what became of its money, in the
 * customer's words: a paid order's cancellation refunds it (on account, a credit note cancels
 * its invoice).
 */
export function cancelledWords(order: Pick<Order, "cancelReason" | "paidAt" | "account">): string {
  const why =
    order.cancelReason === "hold_ran_out"
      ? "This order was cancelled: it was not paid before its hold on the stock ran out, and its parts went back on sale."
      : order.cancelReason === "store"
        ? "We cancelled this order, and its parts went back on sale."
        : order.cancelReason === "declined"
          ? "Your company declined this order, so it is cancelled and its parts went back on sale."
          : order.cancelReason === "buyer"
            ? "You cancelled the parts on backorder that were all this order had left to send, so the whole order is cancelled."
            : "This order was cancelled and its parts went back on sale.";
  // Unpaid, nothing is said of money: a card charged as the order was cancelled is refunded
  // from the admin's "Payments to refund", and its customer emailed then.
  if (order.paidAt === null) return why;
  return order.account
    ? `${why} A credit note cancels its invoice.`
    : `${why} What you paid is refunded the way you paid it.`;
}
