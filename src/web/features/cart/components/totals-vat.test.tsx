import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { Cart } from "#contract/cart";
import { Totals } from "./totals";

// The cart's totals for a consumer whose prices include VAT (docs/tax.md "Prices with VAT
// included"): no tax line added before the total; the VAT the total contains under it.

const cart = (over: Partial<Cart>): Cart => ({
  lines: [],
  count: 3,
  subtotal: 41.07,
  discount: null,
  discountProblem: null,
  coreDeposits: 0,
  currency: "EUR",
  canCheckout: true,
  destination: { country: "DE", region: null, postalCode: "10115" },
  shippingOptions: [],
  shippingMethodId: null,
  shipping: 8.21,
  tax: 7.87,
  taxRate: 19,
  taxName: "VAT",
  taxNote: null,
  total: 49.28,
  deliveryProblem: null,
  ...over,
});

test("gross prices: the total, then 'Includes VAT (19 %) €7.87'; no tax line", () => {
  render(<Totals cart={cart({ pricesIncludeTax: true })} />);
  expect(screen.getByTestId("checkout-total").textContent).toBe("€49.28");
  expect(screen.getByTestId("checkout-tax-included").textContent).toBe("Includes VAT (19 %) €7.87");
  expect(screen.queryByTestId("checkout-tax")).toBeNull();
});

test("net prices: the tax line before the total, as always", () => {
  render(<Totals cart={cart({ total: 57.15 })} estimate />);
  expect(screen.getByTestId("estimate-tax").textContent).toBe("€7.87");
  expect(screen.queryByTestId("estimate-tax-included")).toBeNull();
});
