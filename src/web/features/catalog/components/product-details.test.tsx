import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { formatDimensions, formatWeight, type ProductDetail } from "#contract/products";
import { siteConfigQueryOptions } from "../../../lib/use-site-config";
import { aProduct, aProductDetail } from "../../../../../tests/support/web-products";
import { ProductDetails } from "./product-details";

const product: ProductDetail = aProductDetail(
  aProduct({
    name: "Brake disc",
    partNumber: "PW-BD-2001",
    img: "/images/products/brake-disc.svg",
    price: 64,
    minimumOrder: 1,
    availableQuantity: 12,
    shortDescription: "Vented front disc",
  }),
);

function details(p: ProductDetail) {
  const client = new QueryClient();
  // The currency is known: nothing is fetched.
  client.setQueryData(siteConfigQueryOptions.queryKey, {
    currency: "USD",
    socialProviders: [],
    payments: { gateway: "test-card" },
  });
  render(
    <QueryClientProvider client={client}>
      <ProductDetails product={p} />
    </QueryClientProvider>,
  );
}

test("a product with a weight and dimensions shows both among its facts", () => {
  details({ ...product, weightGrams: 1200, lengthMm: 300, widthMm: 200, heightMm: 100 });
  expect(screen.getByText("Weight")).toBeTruthy();
  expect(screen.getByTestId("weight").textContent).toBe("1.2 kg");
  expect(screen.getByText("Dimensions")).toBeTruthy();
  expect(screen.getByTestId("dimensions").textContent).toBe("300 × 200 × 100 mm");
});

test("a product without them shows neither (0 g is a weight nobody gave)", () => {
  details(product);
  expect(screen.queryByText("Weight")).toBeNull();
  expect(screen.queryByTestId("weight")).toBeNull();
  expect(screen.queryByText("Dimensions")).toBeNull();
  expect(screen.queryByTestId("dimensions")).toBeNull();
});

test("weights and sizes are written as people read them", () => {
  expect(formatWeight(850)).toBe("850 g");
  expect(formatWeight(1000)).toBe("1 kg");
  expect(formatWeight(1250)).toBe("1.25 kg");
  expect(formatWeight(4205)).toBe("4.205 kg");
  expect(formatWeight(1_000_000)).toBe("1,000 kg");
  expect(formatDimensions({ lengthMm: 1500, widthMm: 80, heightMm: 10_000 })).toBe(
    "1,500 × 80 × 10,000 mm",
  );
});

test("the ordering page says where the stock ships from and when more comes; the part page in stock or not", () => {
  const client = new QueryClient();
  client.setQueryData(siteConfigQueryOptions.queryKey, {
    currency: "USD",
    socialProviders: [],
    payments: { gateway: "test-card" },
  });
  const chicago = { code: "CHI", name: "Chicago warehouse", city: "Chicago", onSale: 12 };
  const backorder = { available: true, expectedOn: "2027-01-12", more: 30 };
  const page = (p: Parameters<typeof ProductDetails>[0]["product"]) =>
    render(
      <QueryClientProvider client={client}>
        <ProductDetails product={p} />
      </QueryClientProvider>,
    );
  const ordering = page({ ...product, stockByLocation: [chicago], backorder });
  // The specification's own row stays beside the words.
  expect(screen.getByText("Available quantity")).toBeTruthy();
  expect(screen.getByTestId("availability").textContent).toBe(
    "12 ship today from Chicago warehouse · 30 more on 12 Jan 2027",
  );
  ordering.unmount();
  // The part page's product: in stock or not, never how many nor where.
  const part = Object.fromEntries(
    Object.entries(product).filter(([k]) => k !== "availableQuantity" && k !== "stockByLocation"),
  ) as Omit<ProductDetail, "availableQuantity" | "stockByLocation">;
  page({ ...part, inStock: false, backorder });
  expect(screen.queryByText("Available quantity")).toBeNull();
  expect(screen.getByTestId("availability").textContent).toBe(
    "Out of stock · on backorder, expected 12 Jan 2027",
  );
});

test("a product priced in a market shows its own currency, not the store's", () => {
  details({ ...product, currency: "EUR", price: 58.88 });
  expect(screen.getByText("€58.88")).toBeTruthy();
  expect(screen.queryByText("$64.00")).toBeNull();
});

test("a consumer's gross price in a market with VAT included says so; a net price says nothing", () => {
  const taxIncluded = { rateMillipercent: 20000, note: "incl. 20 % VAT" };
  details({ ...product, currency: "EUR", price: 17.56, taxIncluded });
  expect(screen.getByTestId("price-vat-included").textContent).toBe("incl. 20 % VAT");
  cleanup();
  details(product);
  expect(screen.queryByTestId("price-vat-included")).toBeNull();
  expect(screen.queryByText(/VAT/)).toBeNull();
});
