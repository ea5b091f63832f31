import { useState } from "react";
import { useNavigate } from "react-router";
import {
  QUOTE_MESSAGE_MAX,
  quoteAdminStatusLabels,
  quoteStatusLabels,
  type QuoteDetail,
} from "#contract/quotes";
import { paths } from "#contract/paths";
import { Link } from "../../../components/link";
import {
  AddressChoice,
  chosenAddressId,
  type AddressBookPort,
} from "../../../components/address-choice";
import { OrderTotalLines } from "../../../components/order-total-lines";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatDate, formatDateTime, formatOrderNumber, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import type { Order } from "#contract/orders";
import { orderMessages } from "#contract/orders";
import { dueDateWords } from "#contract/payment-words";
import { chargedToAccount } from "#contract/terms";
import { vatIncludedWords } from "#contract/tax";
import { quotedInCart, useRemoveQuotedFromCart } from "../api/quoted-in-cart";
import {
  useAcceptQuote,
  useDeclineQuote,
  usePostQuoteMessage,
  useQuote,
  useQuoteTotal,
  useSendQuote,
} from "../api/quotes";
import { FormError } from "../../../components/form-field";

/** One quote: its lines, what the caller can do now, and the message thread. */
export function QuoteView({
  id,
  admin,
  book,
}: {
  id: string;
  admin: boolean;
  /** Where the accepted quote's order may go (the buyer's and their company's addresses). */
  book: AddressBookPort;
}) {
  const { data: quote, error, isPending } = useQuote(id);
  if (isPending) return <PageSpinner />;
  if (error) return <QueryError error={error} />;
  const labels = admin ? quoteAdminStatusLabels : quoteStatusLabels;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">Quote {quote.reference}</h1>
        <span className="badge" data-testid="quote-status">
          {labels[quote.status]}
        </span>
      </div>
      <p className="text-sm text-base-content/75">
        Requested {formatDateTime(quote.createdAt)} by {quote.requesterName || quote.requesterEmail}
        {quote.companyName ? ` for ${quote.companyName}` : ""}
        {quote.expiresAt ? ` · valid until ${formatDateTime(quote.expiresAt)}` : ""}
      </p>
      {quote.note && (
        <blockquote className="rounded-box bg-base-200 p-4 whitespace-pre-wrap">
          {quote.note}
        </blockquote>
      )}
      {admin && quote.status === "requested" ? (
        <PriceForm quote={quote} />
      ) : (
        <Lines quote={quote} />
      )}
      {!admin && <CustomerActions quote={quote} book={book} />}
      {quote.orderId && quote.orderNumber && (
        <p className="alert alert-success">
          Accepted: it is order{" "}
          <Link className="link" to={paths.order.to(quote.orderId)}>
            {formatOrderNumber({ orderNumber: quote.orderNumber })}
          </Link>
          .
        </p>
      )}
      <Thread quote={quote} />
    </div>
  );
}

/**
 * The currency a quote's prices are in (the market it was asked in: docs/quotes.md), and for a
 * consumer's quote in a market that shows VAT, that its prices include it.
 */
function pricesInWords(quote: Pick<QuoteDetail, "currency" | "pricesIncludeTax" | "taxRate">) {
  const vat = quote.pricesIncludeTax ? `, ${vatIncludedWords.price(quote.taxRate ?? 0)}` : "";
  return `Prices in ${quote.currency}${vat}`;
}

function Lines({ quote }: { quote: QuoteDetail }) {
  return (
    <div className="flex flex-col gap-2 overflow-x-auto">
      <p className="text-sm text-base-content/75" data-testid="quote-currency">
        {pricesInWords(quote)}
      </p>
      <table className="table" aria-label="Quoted parts">
        <thead>
          <tr>
            <th>Part</th>
            <th className="text-right">Qty</th>
            <th className="text-right">Your price then</th>
            <th className="text-right">Quoted unit price</th>
            <th className="text-right">Line total</th>
          </tr>
        </thead>
        <tbody>
          {quote.lines.map((l) => (
            <tr key={l.productId} data-testid="quote-line">
              <td>
                {l.productName}
                {l.partNumber && (
                  <span className="text-xs text-base-content/75"> ({l.partNumber})</span>
                )}
              </td>
              <td className="text-right">{l.qty}</td>
              <td className="text-right">{formatPrice(l.seenPrice, quote.currency)}</td>
              <td className="text-right">
                {l.quotedPrice === null ? "—" : formatPrice(l.quotedPrice, quote.currency)}
              </td>
              <td className="text-right">
                {l.lineTotal === null ? "—" : formatPrice(l.lineTotal, quote.currency)}
              </td>
            </tr>
          ))}
        </tbody>
        {quote.total !== null && (
          <tfoot>
            <tr>
              <th colSpan={4}>Total (before shipping and tax)</th>
              <th className="text-right" data-testid="quote-total">
                {formatPrice(quote.total, quote.currency)}
              </th>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** A date two weeks from today, as a date input's value. */
const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

/** The admin prices each line and picks the last day it can be accepted, then sends it. */
function PriceForm({ quote }: { quote: QuoteDetail }) {
  const [prices, setPrices] = useState<Record<string, string>>(() =>
    Object.fromEntries(quote.lines.map((l) => [l.productId, String(l.seenPrice)])),
  );
  const [until, setUntil] = useState(inTwoWeeks);
  const send = useSendQuote(quote.id);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        // Valid to the end of the chosen day, in the admin's time zone.
        const expiresAt = new Date(`${until}T23:59:59`).toISOString();
        send.mutate(
          {
            lines: quote.lines.map((l) => ({
              productId: l.productId,
              unitPrice: Number(prices[l.productId]),
            })),
            expiresAt,
          },
          {
            onSuccess: () => notify.success(`Quote ${quote.reference} sent: the buyer is emailed`),
          },
        );
      }}
    >
      <p className="text-sm" data-testid="quote-currency">
        {pricesInWords(quote)}
      </p>
      <ul className="flex flex-col gap-3">
        {quote.lines.map((l) => (
          <li
            key={l.productId}
            className="flex flex-wrap items-end justify-between gap-3 rounded-box border border-base-300 p-3"
          >
            <span className="flex flex-col">
              <span className="font-medium">
                {l.qty} × {l.productName}
                {l.partNumber ? ` (${l.partNumber})` : ""}
              </span>
              <span className="text-xs text-base-content/75">
                Their price then: {formatPrice(l.seenPrice, quote.currency)}
              </span>
            </span>
            <span className="flex items-end gap-2">
              <label className="flex flex-col gap-1">
                <span className="text-sm">Unit price for {l.productName}</span>
                <input
                  type="number"
                  inputMode="decimal"
                  min="0.01"
                  step="0.01"
                  required
                  className="input input-bordered input-sm w-36"
                  value={prices[l.productId] ?? ""}
                  onChange={(e) => setPrices({ ...prices, [l.productId]: e.target.value })}
                />
              </label>
              {/* The quote's own currency: the market it was asked in. */}
              <span className="pb-1 text-sm text-base-content/75" data-testid="price-currency">
                {quote.currency}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <label className="flex flex-col gap-1">
        <span className="text-sm font-medium">Valid until</span>
        <input
          type="date"
          required
          className="input input-bordered input-sm w-48"
          value={until}
          onChange={(e) => setUntil(e.target.value)}
        />
      </label>
      <FormError message={send.error?.message} />
      <button type="submit" className="btn btn-primary self-start" disabled={send.isPending}>
        Send the quote
      </button>
    </form>
  );
}

/** The buyer (or an owner) accepts, with where it goes, or declines. */
function CustomerActions({ quote, book }: { quote: QuoteDetail; book: AddressBookPort }) {
  const [picked, setPicked] = useState<string>();
  const { addresses, companyAddresses } = book;
  const addressId =
    addresses && companyAddresses
      ? chosenAddressId(addresses, companyAddresses, picked)
      : undefined;
  const accept = useAcceptQuote(quote.id);
  const decline = useDeclineQuote(quote.id);
  const open = quote.status === "sent" && quote.canDecide;
  const total = useQuoteTotal(quote.id, open ? addressId : undefined);
  const navigate = useNavigate();
  const removeFromCart = useRemoveQuotedFromCart();
  // The order just placed, and which quoted parts the cart still holds at list price.
  const [placed, setPlaced] = useState<{ order: Order; inCart: string[] }>();
  // Unpaid (card): its payment page; on account or awaiting approval: the order's page.
  const goTo = (order: Order) =>
    void navigate(
      order.status === "unpaid" ? paths.payment.to(order._id) : paths.order.to(order._id),
    );
  const afterAcceptance = async (order: Order) => {
    const inCart = await quotedInCart(quote.lines.map((l) => l.productId)).catch(() => []);
    if (inCart.length === 0) goTo(order);
    else setPlaced({ order, inCart });
  };
  // Asked once the order is placed, when the quote has become "accepted" (the actions are gone).
  const cartChoice = (
    <ConfirmDialog
      open={placed !== undefined}
      title="Take the quoted parts out of your cart?"
      confirmLabel="Remove from cart"
      cancelLabel="Keep them in the cart"
      tone="positive"
      busy={removeFromCart.isPending}
      error={removeFromCart.error?.message}
      onConfirm={() =>
        placed && removeFromCart.mutate(placed.inCart, { onSuccess: () => goTo(placed.order) })
      }
      onCancel={() => placed && goTo(placed.order)}
    >
      Your order is placed at the quoted prices. Your cart still holds{" "}
      {placed?.inCart.length === 1 ? "one of its parts" : `${placed?.inCart.length} of its parts`}{" "}
      at list price: checking it out would order them a second time.
    </ConfirmDialog>
  );
  if (placed) return cartChoice;
  if (quote.status === "requested") {
    return (
      <p className="alert">We are pricing your request: you will be emailed when it is ready.</p>
    );
  }
  if (quote.status === "expired") {
    return <p className="alert">This quote has expired: ask for a new quote from your cart.</p>;
  }
  if (quote.status !== "sent") return null;
  if (!quote.canDecide) {
    return (
      <p className="alert">
        Priced and waiting: the buyer who asked, or an owner of your company, can accept it.
      </p>
    );
  }
  return (
    <section className="flex flex-col gap-3 rounded-box border border-base-300 p-5">
      <h2 className="text-lg font-bold">Accept this quote</h2>
      <p className="text-sm text-base-content/75">
        It becomes an order at the quoted prices; shipping and tax are added as at checkout. You
        then pay it as any order (a company on net terms: on account, against its invoice).
      </p>
      <h3 className="font-semibold">Deliver to</h3>
      <AddressChoice book={book} value={addressId} onChange={setPicked} idPrefix="quote-address" />
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!total.data || !addressId) return;
          accept.mutate(
            { addressId, expectedTotal: total.data.total },
            {
              onSuccess: ({ order }) => {
                // Where the order went decides what it says and where it goes: on account (net
                // terms) or waiting for an owner, the order's page; otherwise the card payment.
                notify.success(acceptedMessage(order));
                void afterAcceptance(order);
              },
            },
          );
        }}
      >
        {addressId && (
          <OrderTotalLines
            total={total.data}
            currency={quote.currency}
            partsLabel="Quoted parts"
            testId="quote-total"
          />
        )}
        {(accept.error || decline.error || total.error) && (
          <p role="alert" className="text-sm text-error">
            {(accept.error ?? decline.error ?? total.error)!.message}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={accept.isPending || !total.data || total.isFetching}
          >
            Accept and order
          </button>
          <button
            type="button"
            className="btn btn-outline btn-error"
            disabled={decline.isPending}
            onClick={() =>
              decline.mutate(undefined, { onSuccess: () => notify.success("Quote declined") })
            }
          >
            Decline
          </button>
        </div>
      </form>
    </section>
  );
}

function Thread({ quote }: { quote: QuoteDetail }) {
  const [body, setBody] = useState("");
  const post = usePostQuoteMessage(quote.id);
  return (
    <section className="flex flex-col gap-3" aria-labelledby="quote-messages">
      <h2 id="quote-messages" className="text-lg font-bold">
        Messages
      </h2>
      {quote.messages.length === 0 ? (
        <p className="text-sm text-base-content/75">No messages yet.</p>
      ) : (
        <ol className="flex flex-col gap-2" aria-label="Messages">
          {quote.messages.map((m) => (
            <li
              key={m.id}
              className={`rounded-box p-3 ${m.side === "store" ? "bg-base-200" : "border border-base-300"}`}
            >
              <p className="text-xs text-base-content/75">
                {m.authorName} · {formatDateTime(m.at)}
              </p>
              <p className="whitespace-pre-wrap">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {quote.canWrite && (
        <form
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            post.mutate(body.trim(), { onSuccess: () => setBody("") });
          }}
        >
          <label className="flex flex-col gap-1">
            <span className="text-sm font-medium">Your message</span>
            <textarea
              className="textarea textarea-bordered"
              rows={3}
              required
              maxLength={QUOTE_MESSAGE_MAX}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          </label>
          <FormError message={post.error?.message} />
          <button type="submit" className="btn btn-sm self-start" disabled={post.isPending}>
            Send message
          </button>
        </form>
      )}
      {quote.sentAt && (
        <p className="text-xs text-base-content/75">Sent {formatDate(quote.sentAt)}</p>
      )}
    </section>
  );
}

/** The toast after acceptance says what the order's page says: on account, waiting, or to pay. */
function acceptedMessage(order: Order): string {
  if (order.status === "awaiting_approval") return orderMessages.sentForApproval;
  if (order.account) {
    return chargedToAccount(order.account.invoiceNumber, dueDateWords(order.account.dueAt));
  }
  return "Quote accepted: your order is placed, pay it now";
}
