import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import type { Cart, CartQuoteInput } from "#contract/cart";
import { ShoppingMarketContext, type ShoppingMarket } from "../../../components/address-country";
import { EMPTY_CART } from "../api/cart-contents";
import { DeliveryEstimate } from "./delivery-estimate";

afterEach(() => vi.unstubAllGlobals());

const STANDARD = "00000000-0000-4000-8000-000000000001";
const EXPRESS = "00000000-0000-4000-8000-000000000002";

/** The quote the server gives for a method: Standard free (the cart is over $250), Express $25. */
function quote(methodId: string): Cart {
  const shipping = methodId === EXPRESS ? 25 : 0;
  return {
    ...EMPTY_CART,
    subtotal: 300,
    currency: "USD",
    canCheckout: true,
    destination: { country: "US", region: "IL", postalCode: "60601" },
    shippingOptions: [
      { id: STANDARD, name: "Standard", estimate: "3–5 business days", price: 0, delivery: null },
      { id: EXPRESS, name: "Express", estimate: "1–2 business days", price: 25, delivery: null },
    ],
    shippingMethodId: methodId,
    shipping,
    total: 300 + shipping,
  };
}

test("after another method is chosen, the previous quote's figures are dimmed and busy until the new one comes", async () => {
  let answerExpress!: () => void;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      const input = JSON.parse(String(init.body)) as CartQuoteInput;
      const body = JSON.stringify(quote(input.shippingMethodId ?? STANDARD));
      if (input.shippingMethodId === EXPRESS) {
        await new Promise<void>((resolve) => (answerExpress = resolve));
      }
      return new Response(body, { headers: { "content-type": "application/json" } });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <DeliveryEstimate visitor />
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText("Postal code"), { target: { value: "60601" } });
  fireEvent.click(screen.getByRole("button", { name: "Estimate" }));
  const shipping = await screen.findByTestId("estimate-shipping");
  const figures = shipping.closest("[aria-busy]")!;
  expect(shipping.textContent).toBe("$0.00");
  expect(figures.getAttribute("aria-busy")).toBe("false");

  fireEvent.click(screen.getByRole("radio", { name: /^Express/ }));
  // Express is chosen; the figures are still Standard's: said to be so, not read as Express's.
  await waitFor(() => expect(figures.getAttribute("aria-busy")).toBe("true"));
  expect(figures.className).toContain("opacity-50");
  expect(screen.getByRole("radio", { name: /^Express/ })).toHaveProperty("checked", true);

  answerExpress();
  await waitFor(() => expect(figures.getAttribute("aria-busy")).toBe("false"));
  expect(within(figures as HTMLElement).getByTestId("estimate-shipping").textContent).toBe(
    "$25.00",
  );
  expect(figures.className).not.toContain("opacity-50");
});

function renderIn(market: ShoppingMarket) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ShoppingMarketContext.Provider value={market}>
        <DeliveryEstimate visitor />
      </ShoppingMarketContext.Provider>
    </QueryClientProvider>,
  );
  return screen.getByRole<HTMLSelectElement>("combobox", { name: "Country" });
}

test("in a market of several countries without the store's, the estimate asks for a country first", async () => {
  const fetch = vi.fn();
  vi.stubGlobal("fetch", fetch);
  const country = renderIn({ kind: "market", countries: ["DE", "FR", "IE"] });
  expect(country.value).toBe("");
  expect(country.options[0]!.textContent).toBe("Choose a country");
  fireEvent.change(screen.getByLabelText("Postal code"), { target: { value: "10115" } });
  fireEvent.click(screen.getByRole("button", { name: "Estimate" }));
  // Said beside the form, and nothing asked of the server.
  await screen.findByText("Choose a country", { selector: "p" });
  expect(fetch).not.toHaveBeenCalled();

  fireEvent.change(country, { target: { value: "DE" } });
  expect(country.value).toBe("DE");
  expect(country.options[0]!.value).not.toBe("");
});

test("the estimate starts in a one-country market's country, and in the United States with markets off", () => {
  expect(renderIn({ kind: "market", countries: ["GB"] }).value).toBe("GB");
  cleanup();
  expect(renderIn({ kind: "off" }).value).toBe("US");
});

test("a customer's estimate starts at their default address, which they may change", () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ShoppingMarketContext.Provider value={{ kind: "market", countries: ["AT", "DE", "FR"] }}>
        <DeliveryEstimate visitor={false} home={{ country: "DE", postalCode: "10115" }} />
      </ShoppingMarketContext.Provider>
    </QueryClientProvider>,
  );
  const country = screen.getByRole<HTMLSelectElement>("combobox", { name: "Country" });
  const postalCode = screen.getByLabelText<HTMLInputElement>("Postal code");
  expect([country.value, postalCode.value]).toEqual(["DE", "10115"]);
  fireEvent.change(country, { target: { value: "FR" } });
  fireEvent.change(postalCode, { target: { value: "" } });
  expect([country.value, postalCode.value]).toEqual(["FR", ""]);
});
