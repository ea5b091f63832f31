import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
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
