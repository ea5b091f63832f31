import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, test, vi } from "vitest";
import { productFieldMessages } from "#contract/products";
import { AddProductForm } from "./add-product-form";

afterEach(() => vi.unstubAllGlobals());

function renderForm() {
  const fetch = vi.fn(() => Promise.reject(new Error("nothing may be sent")));
  vi.stubGlobal("fetch", fetch);
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <AddProductForm />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return fetch;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

test("Add Product asks the dimensions beside the weight; a length alone is refused beside the width", async () => {
  const fetch = renderForm();
  expect(screen.getByLabelText("Weight (g, optional)")).toBeTruthy();
  type("Length (mm)", "300");
  fireEvent.click(screen.getByRole("button", { name: "Add Product" }));
  const width = screen.getByLabelText("Width (mm)");
  await waitFor(() => expect(width.getAttribute("aria-invalid")).toBe("true"));
  expect(document.getElementById(width.getAttribute("aria-describedby")!)!.textContent).toBe(
    productFieldMessages.dimensionsTogether,
  );
  // The message is said once, beside the first side missing.
  expect(screen.getAllByText(productFieldMessages.dimensionsTogether)).toHaveLength(1);
  expect(screen.getByLabelText("Height (mm)").getAttribute("aria-invalid")).toBeNull();
  expect(fetch).not.toHaveBeenCalled();
});

test("Add Product with no dimensions at all has nothing to say about them", async () => {
  renderForm();
  // A side typed and emptied again is none, like the two never touched.
  type("Length (mm)", "300");
  type("Length (mm)", "");
  fireEvent.click(screen.getByRole("button", { name: "Add Product" }));
  await screen.findByText("Name is Required");
  expect(screen.queryByText(productFieldMessages.dimensionsTogether)).toBeNull();
  expect(screen.getByLabelText("Length (mm)").getAttribute("aria-invalid")).toBeNull();
});

test("Add Product refuses a minimum order that is not a whole number of packs, beside the minimum", async () => {
  const fetch = renderForm();
  type("Minimum order", "15");
  type("Pack size", "10");
  fireEvent.click(screen.getByRole("button", { name: "Add Product" }));
  const minimum = screen.getByLabelText("Minimum order");
  await waitFor(() => expect(minimum.getAttribute("aria-invalid")).toBe("true"));
  expect(document.getElementById(minimum.getAttribute("aria-describedby")!)!.textContent).toBe(
    "The minimum order must be a multiple of the pack size (10)",
  );
  expect(fetch).not.toHaveBeenCalled();
});
