import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { Cart } from "#contract/cart";
import { EMPTY_CART } from "../api/cart-contents";
import { Totals } from "./totals";

// A quote for a destination in another market than the buyer's (docs/pricing.md "The market
// chosen"): the totals in its currency, and the notice that says so above them.

const cart: Cart = {
  ...EMPTY_CART,
  count: 2,
  subtotal: 47.58,
  currency: "EUR",
  canCheckout: true,
  destination: { country: "DE", region: null, postalCode: "10115" },
  shipping: 6.9,
  total: 54.48,
};

test("a quote in the destination's market says so above its totals, in its currency", () => {
  const notice = "Delivery to Germany is priced in EUR (Europe): the totals below are in EUR";
  render(<Totals cart={{ ...cart, marketNotice: notice }} />);
  expect(screen.getByRole("status").textContent).toBe(notice);
  expect(screen.getByTestId("checkout-total").textContent).toBe("€54.48");
});

test("no notice when the destination is in the buyer's market", () => {
  render(<Totals cart={cart} />);
  expect(screen.queryByTestId("market-notice")).toBeNull();
});
