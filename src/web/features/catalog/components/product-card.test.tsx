import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { sessionQueryOptions } from "../../../lib/session";
import { expect, test } from "vitest";
import type { ProductListItem } from "#contract/products";
import { aProduct } from "../../../../../tests/support/web-products";
import { ProductCard } from "./product-card";

const product: ProductListItem = aProduct();
const card = (p: ProductListItem, session?: object) => {
  const client = new QueryClient();
  if (session) client.setQueryData(sessionQueryOptions.queryKey, session as never);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ProductCard product={p} currency="USD" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

test("a visitor's card opens the part's public page; a signed-in customer's the ordering page", () => {
  const name = () => screen.getByRole("link", { name: "Brake pad set" }).getAttribute("href");
  const visitor = card(product);
  expect(name()).toBe("/parts/pw-bp-1001-brake-pad-set");
  visitor.unmount();
  card(product, { id: "u1", name: "Sam", email: "sam@example.com", role: "user" });
  expect(name()).toBe(`/products/${product._id}`);
});

test("a company buyer's card: Your price, the list price struck through, and the deepest break", () => {
  card({ ...product, yourPrice: 36, yourLowestPrice: { minQty: 50, unitPrice: 30 } });
  expect(screen.getByText("Your price")).toBeTruthy();
  expect(screen.getByTestId("card-your-price").querySelector("strong")!.textContent).toBe("$36.00");
  expect(screen.getByLabelText("List price $40.00").tagName).toBe("S");
  expect(screen.getByText("From 50")).toBeTruthy();
  expect(screen.getByTestId("card-your-lowest-price").textContent).toBe("$30.00 each");
  expect(screen.queryByText("Price")).toBeNull();
});

test("everyone else's card: the price alone, nothing struck through", () => {
  card(product);
  expect(screen.getByText("Price")).toBeTruthy();
  expect(screen.getByText("$40.00")).toBeTruthy();
  expect(screen.queryByText("Your price")).toBeNull();
  expect(screen.queryByTestId("card-your-price")).toBeNull();
});

test("only a break below the list price: the price row stays, the break is added", () => {
  card({ ...product, yourPrice: 40, yourLowestPrice: { minQty: 10, unitPrice: 35 } });
  expect(screen.getByText("Price")).toBeTruthy();
  expect(screen.queryByTestId("card-your-price")).toBeNull();
  expect(screen.getByTestId("card-your-lowest-price").textContent).toBe("$35.00 each");
});

test("a product's public breaks: everyone's card adds the deepest; a buyer's own lowest replaces it", () => {
  const breaks = [
    { minQty: 10, unitPrice: 36 },
    { minQty: 50, unitPrice: 32.5 },
  ];
  const { unmount } = card({ ...product, breaks });
  expect(screen.getByText("Price")).toBeTruthy();
  expect(screen.getByText("From 50")).toBeTruthy();
  expect(screen.getByTestId("card-lowest-break").textContent).toBe("$32.50 each");
  unmount();
  card({ ...product, breaks, yourLowestPrice: { minQty: 50, unitPrice: 30 } });
  expect(screen.queryByTestId("card-lowest-break")).toBeNull();
  expect(screen.getByTestId("card-your-lowest-price").textContent).toBe("$30.00 each");
});

test("a card says what a buyer can expect: counts and dates signed in, in stock or not to a visitor", () => {
  const stocked = aProduct({
    availableQuantity: 12,
    backorder: { available: true, expectedOn: "2027-01-12", more: 30 },
  });
  const words = () => screen.getByTestId("availability").textContent;
  const visitor = card(stocked);
  expect(words()).toBe("In stock");
  // The specification's Available row stays.
  expect(screen.getByText("Available")).toBeTruthy();
  visitor.unmount();
  const buyer = card(stocked, { id: "u1", name: "Sam", email: "sam@example.com", role: "user" });
  expect(words()).toBe("12 in stock · 30 more on 12 Jan 2027");
  buyer.unmount();
  const gone = { ...stocked, availableQuantity: 0 };
  const out = card(gone);
  expect(words()).toBe("Out of stock · on backorder, expected 12 Jan 2027");
  out.unmount();
  card({ ...gone, backorder: null });
  expect(words()).toBe("Out of stock");
});

test("a garage buyer's card: the group price with its words, the list price struck, their minimum and pack", () => {
  card({
    ...product,
    minimumOrder: 10,
    retailMinimum: 1,
    packSize: 10,
    yourPrice: 30,
    priceNote: "Garage price: 25 % off this part",
    yourMinimumOrder: 10,
    yourPackSize: 10,
  });
  expect(screen.getByTestId("card-your-price").querySelector("strong")!.textContent).toBe("$30.00");
  expect(screen.getByLabelText("List price $40.00").tagName).toBe("S");
  expect(screen.getByTestId("card-price-note").textContent).toBe(
    "Garage price: 25 % off this part",
  );
  expect(screen.getByText("Minimum order").nextElementSibling!.textContent).toBe("10");
  expect(screen.getByTestId("card-pack-size").textContent).toBe("10");
});

test("a visitor's and a retail customer's card: the part's retail minimum, no pack", () => {
  card({ ...product, minimumOrder: 50, retailMinimum: 1, packSize: 10 });
  expect(screen.getByText("Minimum order").nextElementSibling!.textContent).toBe("1");
  expect(screen.queryByTestId("card-pack-size")).toBeNull();
  expect(screen.queryByTestId("card-price-note")).toBeNull();
});

test("a card priced in a market: its own currency, never the store's", () => {
  card({ ...product, currency: "EUR", price: 36.8, coreDeposit: 9.2 });
  expect(screen.getByText("€36.80")).toBeTruthy();
  expect(screen.getByText("€9.20")).toBeTruthy();
  expect(screen.queryByText(/\$/)).toBeNull();
});

test("a consumer's gross price in a market with VAT included says so under the price; a net one says nothing", () => {
  const taxIncluded = { rateMillipercent: 20000, note: "incl. 20 % VAT" };
  const gross = card({ ...product, currency: "EUR", price: 17.56, taxIncluded });
  expect(screen.getByTestId("card-vat-included").textContent).toBe("incl. 20 % VAT");
  gross.unmount();
  card(product);
  expect(screen.queryByTestId("card-vat-included")).toBeNull();
  expect(screen.queryByText(/VAT/)).toBeNull();
});
