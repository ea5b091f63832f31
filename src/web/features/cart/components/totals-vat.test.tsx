import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { Cart } from "#contract/cart";
import type { OrderTotal } from "#contract/orders";
import { OrderTotalLines } from "../../../components/order-total-lines";
import { EMPTY_CART } from "../api/cart-contents";
import { Totals } from "./totals";

// The cart's totals for a consumer whose prices include VAT (docs/tax.md "Prices with VAT
// included"): no tax line added before the total; the VAT the total contains under it.

const cart = (over: Partial<Cart>): Cart => ({
  ...EMPTY_CART,
  count: 3,
  subtotal: 41.07,
  currency: "EUR",
  canCheckout: true,
  destination: { country: "DE", region: null, postalCode: "10115" },
  shipping: 8.21,
  tax: 7.87,
  taxRate: 19,
  taxName: "VAT",
  total: 49.28,
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

test("the order dialog's total: 'Includes VAT (19 %)' €7.87 under the total to pay, no tax line", () => {
  const total: OrderTotal = {
    subtotal: 41.07,
    coreDeposits: 0,
    shipping: 8.21,
    shippingMethod: "Standard",
    tax: 7.87,
    total: 49.28,
    pricesIncludeTax: true,
    taxRate: 19,
  };
  render(<OrderTotalLines total={total} currency="EUR" partsLabel="Parts" testId="t" />);
  const lines = [...screen.getByTestId("t").querySelectorAll("dt")].map((d) => d.textContent);
  expect(lines).toEqual(["Parts", "Shipping (Standard)", "Total to pay", "Includes VAT (19 %)"]);
  expect(screen.getByTestId("t-to-pay").textContent).toBe("€49.28");
  expect(screen.getByTestId("t-tax-included").textContent).toBe("€7.87");
});
