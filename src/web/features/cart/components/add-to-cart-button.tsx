import { buyerMinimum, type ProductListItem } from "#contract/products";
import { Link } from "../../../components/link";
import { paths } from "#contract/paths";
import { notifyOutcome } from "../../../lib/notify";
import { loadRememberedVehicle } from "../../../lib/vehicle-choice";
import { useCartOwner, useQtyInCart, useSetCartQty } from "../api/cart";

/**
 * Puts a part in the cart (`qty`, by default the product's minimum order), for the vehicle the
 * shopper has chosen (the line keeps it); once it is there, leads to the cart instead. Not shown
 * to admins: they do not order.
 */
export function AddToCartButton({
  product,
  qty,
  className = "",
}: {
  product: { _id: string; name: string; minimumOrder: number };
  qty?: number;
  className?: string;
}) {
  const owner = useCartOwner();
  const inCart = useQtyInCart(product._id);
  const setQty = useSetCartQty();
  if (owner === "none") return null;
  if (inCart > 0) {
    return (
      // The name starts with the visible words (voice control); a .btn's flex layout would put a
      // space before a hidden ": name" span, so the whole name is given here.
      <Link
        to={paths.cart}
        className={`btn btn-outline ${className}`}
        aria-label={`In your cart (${inCart}): ${product.name}`}
      >
        In your cart ({inCart})
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={`btn btn-outline btn-primary ${className}`}
      aria-label={`Add to cart: ${product.name}`}
      disabled={setQty.isPending || owner === "unknown"}
      onClick={() =>
        setQty.mutate(
          {
            productId: product._id,
            qty: qty && qty > 0 ? qty : product.minimumOrder,
            vehicle: loadRememberedVehicle(),
          },
          notifyOutcome(`${product.name} is in your cart`),
        )
      }
    >
      Add to cart
    </button>
  );
}

/**
 * The cart's button for a product card (it sits above the card's whole-card link): it puts in
 * the buyer's minimum (`buyerMinimum`: a trade buyer's own, else the part's retail minimum).
 */
export const cardCartAction = (
  product: Pick<ProductListItem, "_id" | "name" | "retailMinimum" | "yourMinimumOrder">,
) => (
  <AddToCartButton
    product={{ ...product, minimumOrder: buyerMinimum(product) }}
    className="relative flex-1"
  />
);
