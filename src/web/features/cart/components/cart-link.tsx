import { plural } from "#contract/count";
import { NavLink } from "../../../components/link";
import { paths } from "#contract/paths";
import { useCartCount, useMergeVisitorCart } from "../api/cart";

/** The navbar's cart: an icon with the number of units in it. Admins have none. */
export function CartLink() {
  useMergeVisitorCart();
  const count = useCartCount();
  if (count === undefined) return null;
  const label = `Cart, ${plural(count, "item")}`;
  return (
    <li>
      <NavLink
        to={paths.cart}
        aria-label={label}
        title={label}
        data-testid="cart-link"
        className={({ isActive }) => (isActive ? "menu-active" : "")}
      >
        <span className="relative inline-flex">
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none">
            <path
              d="M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.8a1 1 0 0 0 1-.8L20 8H6.2M9 19.5a1 1 0 1 0 0 .01M17 19.5a1 1 0 1 0 0 .01"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          {count > 0 && (
            <span
              className="badge absolute -top-2 -right-3 badge-xs badge-primary"
              data-testid="cart-count"
            >
              {count > 999 ? "999+" : count}
            </span>
          )}
        </span>
        <span className="md:sr-only">Cart</span>
      </NavLink>
    </li>
  );
}
