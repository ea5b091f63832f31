import { BackorderNote } from "./backorder-note";
import { pluralCount } from "#contract/count";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../../../components/link";
import type { Cart, CartLine } from "#contract/cart";
import { paths } from "#contract/paths";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatCount, formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useSetCartQty } from "../api/cart";
import { useCart } from "../api/cart-contents";
import { DeliveryEstimate, type EstimatePlace } from "./delivery-estimate";
import { DiscountCodeField } from "./discount-code-field";
import { discountLineLabel } from "#contract/discount-codes";
import { cartVatNote } from "#contract/tax";

/**
 * /cart: the lines with their quantities and what stands in the way, the subtotal, checkout.
 * `home`: the signed-in customer's default address, where the delivery estimate starts.
 */
export function CartView({ home }: { home?: EstimatePlace }) {
  const cart = useCart();
  const navigate = useNavigate();
  if (cart.owner === "none") {
    return <p className="alert">Admins do not order; the cart is for customers.</p>;
  }
  if (cart.isPending) return <PageSpinner />;
  if (cart.error) return <QueryError error={cart.error} />;
  const data = cart.data;
  if (!data || data.lines.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-box border border-base-300 p-6">
        <p>Your cart is empty.</p>
        <Link to={paths.allProducts} className="btn btn-primary">
          Browse all products
        </Link>
      </div>
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <ul className="flex flex-col gap-3" aria-label="Parts in your cart">
        {data.lines.map((line) => (
          // Keyed on the quantity too: a quantity the server changed starts a fresh input.
          <CartLineItem
            key={`${line.productId}-${line.qty}`}
            line={line}
            currency={data.currency}
            vatNote={cartVatNote(data)}
          />
        ))}
      </ul>
      <CartSummary
        cart={data}
        onCheckout={() =>
          // A visitor signs in first (the cart joins their account's), then checks out.
          cart.owner === "visitor"
            ? navigate(paths.login, { state: { from: paths.checkout } })
            : navigate(paths.checkout)
        }
        visitor={cart.owner === "visitor"}
        home={home}
      />
    </div>
  );
}

function CartSummary({
  cart,
  onCheckout,
  visitor,
  home,
}: {
  cart: Cart;
  onCheckout: () => void;
  visitor: boolean;
  home?: EstimatePlace;
}) {
  return (
    <aside className="flex h-fit flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-5">
      <h2 className="text-lg font-bold">Summary</h2>
      <p className="flex justify-between">
        <span>Subtotal ({pluralCount(cart.count, "item")})</span>
        <strong data-testid="cart-subtotal">{formatPrice(cart.subtotal, cart.currency)}</strong>
      </p>
      {cart.discount && (
        <p className="flex flex-wrap justify-between gap-x-2">
          <span>{discountLineLabel(cart.discount.code)}</span>
          <strong data-testid="cart-discount">
            −{formatPrice(cart.discount.amount, cart.currency)}
          </strong>
        </p>
      )}
      {!visitor && <DiscountCodeField cart={cart} />}
      {!cart.canCheckout && (
        <p className="text-sm text-error">Fix the lines marked above to check out.</p>
      )}
      <DeliveryEstimate visitor={visitor} home={home} />
      <button
        type="button"
        className="btn btn-primary"
        disabled={!cart.canCheckout}
        onClick={onCheckout}
      >
        {visitor ? "Sign in to check out" : "Check out"}
      </button>
    </aside>
  );
}

/** A line of the cart: its part, price, quantity and what stands in its way. */
export function CartLineItem({
  line,
  currency,
  vatNote,
}: {
  line: CartLine;
  currency: string;
  /** "incl. 19 % VAT" beside a consumer's gross prices (`cartVatNote`); null: net prices. */
  vatNote: string | null;
}) {
  const setQty = useSetCartQty();
  const [draft, setDraft] = useState(String(line.qty));
  const inputId = useId();
  const problemId = useId();
  const deleted = line.img === null;

  const change = (qty: number) =>
    setQty.mutate(
      { productId: line.productId, qty },
      { onError: (err) => notify.error(err.message) },
    );
  const commit = () => {
    const n = Number(draft);
    if (Number.isInteger(n) && n >= 1 && n !== line.qty) change(n);
    else setDraft(String(line.qty));
  };

  return (
    <li
      className="flex flex-wrap items-center gap-4 rounded-box border border-base-300 bg-base-100 p-4"
      data-testid="cart-line"
    >
      {line.img && (
        <img
          src={line.img}
          alt=""
          width="96"
          height="72"
          className="h-18 w-24 rounded object-cover"
        />
      )}
      <div className="flex min-w-48 flex-1 flex-col gap-1">
        {deleted ? (
          <span className="font-semibold">{line.productName}</span>
        ) : (
          <Link to={paths.product.to(line.productId)} className="link font-semibold link-hover">
            {line.productName}
          </Link>
        )}
        {!deleted && (
          <span className="text-sm text-base-content/75">
            {formatPrice(line.unitPrice, currency)} each
            {vatNote && <span data-testid="cart-line-vat-included"> ({vatNote})</span>} · min{" "}
            {formatCount(line.minimumOrder)} · {formatCount(line.availableQuantity)} in stock
          </span>
        )}
        {line.priceNote && (
          <span className="text-sm font-medium" data-testid="cart-price-note">
            {line.priceNote}
          </span>
        )}
        {line.vehicle && (
          <span className="text-sm text-base-content/75" data-testid="cart-line-vehicle">
            For: {line.vehicle}
          </span>
        )}
        {!deleted && line.coreDeposit > 0 && (
          <span className="text-sm text-base-content/75" data-testid="cart-core-deposit">
            + core deposit {formatPrice(line.coreDeposit, currency)} each, refunded when the old
            part comes back
          </span>
        )}
        <BackorderNote line={line} className="text-sm text-base-content/75" />
        {line.notice && <span className="text-sm text-warning-content">{line.notice}</span>}
        {line.problem && (
          <span
            id={problemId}
            className="text-sm font-medium text-error"
            data-testid="line-problem"
          >
            {line.problem}
          </span>
        )}
      </div>
      {!deleted && (
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-xs text-base-content/75">
            Quantity
          </label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className={`input input-sm w-24 ${line.problem ? "input-error" : ""}`}
            value={draft}
            aria-describedby={line.problem ? problemId : undefined}
            aria-invalid={line.problem ? true : undefined}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => e.key === "Enter" && commit()}
          />
        </div>
      )}
      <strong className="w-24 text-right">{formatPrice(line.lineTotal, currency)}</strong>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={setQty.isPending}
        onClick={() => change(0)}
        aria-label={`Remove: ${line.productName}`}
      >
        Remove
      </button>
    </li>
  );
}
