import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { ProductStock } from "#contract/locations";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { BackorderPolicy } from "./backorder-policy";

undoStubsAfterEach();

const product: ProductStock = {
  productId: "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11",
  name: "Brake caliper",
  partNumber: "PW-BC-1",
  availableQuantity: 0,
  locations: [],
  backorders: { takes: true, leadDays: null, waiting: 3 },
};

test("units waiting link the part's backorder queue", () => {
  renderWithApi(<BackorderPolicy product={product} />, () => json({}));
  expect(screen.getByTestId("backorders-waiting").textContent).toContain("3 units wait");
  expect(
    screen
      .getByRole("link", { name: "See the orders waiting in the backorder queue" })
      .getAttribute("href"),
  ).toBe(`/dashboard/backorders?productId=${product.productId}`);
});

test("no units waiting, no link to the queue", () => {
  renderWithApi(
    <BackorderPolicy product={{ ...product, backorders: { ...product.backorders, waiting: 0 } }} />,
    () => json({}),
  );
  expect(screen.getByTestId("backorders-waiting").textContent).toBe("No units wait on backorder.");
  expect(screen.queryByRole("link")).toBeNull();
});
