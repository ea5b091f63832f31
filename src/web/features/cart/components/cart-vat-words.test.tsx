import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { expect, test } from "vitest";
import type { CartLine } from "#contract/cart";
import { cartVatNote } from "#contract/tax";
import { CartLineItem } from "./cart-view";
import { CheckoutPricesWords, checkoutWaitingWords } from "./checkout-form";

// What a consumer whose prices include VAT reads in the cart and at checkout (docs/tax.md
// "Prices with VAT included"); a buyer with net prices reads what they always did.

const line: CartLine = {
  productId: "00000000-0000-4000-8000-000000000001",
  productName: "Brake pad set",
  img: "/images/brake-pads.jpg",
  qty: 2,
  unitPrice: 17.56,
  lineTotal: 35.12,
  minimumOrder: 1,
  availableQuantity: 40,
  problem: null,
  backorder: null,
  notice: null,
  priceNote: null,
  tax: 0,
  coreDeposit: 0,
  vehicle: null,
};

const lineItem = (vatNote: string | null) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <CartLineItem line={line} currency="EUR" vatNote={vatNote} />
      </MemoryRouter>
    </QueryClientProvider>,
  );

test("the words of a cart's prices: its rate when they include VAT, none when net", () => {
  expect(cartVatNote({ pricesIncludeTax: true, taxRate: 20 })).toBe("incl. 20 % VAT");
  expect(cartVatNote({ pricesIncludeTax: true, taxRate: 19 })).toBe("incl. 19 % VAT");
  expect(cartVatNote({ taxRate: 8.875 })).toBeNull();
  expect(cartVatNote({ pricesIncludeTax: true, taxRate: null })).toBeNull();
});

test("a cart line with gross prices says 'incl. 20 % VAT' beside its unit price; a net one nothing", () => {
  lineItem("incl. 20 % VAT");
  expect(screen.getByTestId("cart-line-vat-included").textContent).toBe(" (incl. 20 % VAT)");
  expect(screen.getByText(/€17\.56 each/).textContent).toContain("€17.56 each (incl. 20 % VAT)");
  cleanup();
  lineItem(null);
  expect(screen.queryByTestId("cart-line-vat-included")).toBeNull();
  expect(screen.queryByText(/VAT/)).toBeNull();
  expect(screen.getByText(/€17\.56 each/)).toBeTruthy();
});

test("the checkout says a consumer's prices include VAT; net prices are before tax", () => {
  render(<CheckoutPricesWords grossPrices />);
  const gross = screen.getByTestId("checkout-prices-words").textContent;
  expect(gross).toBe(
    "Prices include VAT; shipping is added here. Placing the order holds the parts for you; then you pay by card.",
  );
  expect(gross).not.toContain("before tax");
  cleanup();
  render(<CheckoutPricesWords grossPrices={false} />);
  expect(screen.getByTestId("checkout-prices-words").textContent).toBe(
    "Prices are before tax; shipping and tax are added here. Placing the order holds the parts for you; then you pay by card.",
  );
});

test("before its quote, the checkout tells a consumer with gross prices their country's VAT decides, not that tax is added", () => {
  expect(checkoutWaitingWords({ grossPrices: true, hasAddress: false })).toBe(
    "Add a delivery address to see shipping and your prices with its country's VAT.",
  );
  expect(checkoutWaitingWords({ grossPrices: true, hasAddress: true })).toBe(
    "Working out shipping and VAT…",
  );
  expect(checkoutWaitingWords({ grossPrices: false, hasAddress: false })).toBe(
    "Add a delivery address to see shipping and tax.",
  );
  expect(checkoutWaitingWords({ grossPrices: false, hasAddress: true })).toBe(
    "Working out shipping and tax…",
  );
});
