import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, test, vi } from "vitest";
import { productFieldMessages, type ProductDetail } from "#contract/products";
import { aProduct, aProductDetail } from "../../../../../tests/support/web-products";
import { changesOf, EditProductForm } from "./edit-product-form";

const product: ProductDetail = aProductDetail(aProduct({ _id: "p1", price: 39.9 }), {
  crossReferences: [{ kind: "OE", brand: "Toyota", number: "04465-02220" }],
  weightGrams: 850,
});
const unchanged = {
  partNumber: product.partNumber,
  category: product.category,
  crossReferences: [{ kind: "OE" as const, brand: "Toyota", number: "04465-02220" }],
  price: product.price,
  availableQuantity: product.availableQuantity,
  minimumOrder: product.minimumOrder,
  warranty: product.warranty,
  shortDescription: product.shortDescription,
  img: product.img,
  lengthMm: null,
  widthMm: null,
  heightMm: null,
};

test("an edit sends only the fields that changed", () => {
  expect(changesOf(product, unchanged)).toEqual({});
  expect(changesOf(product, { ...unchanged, price: 42, warranty: 36 })).toEqual({
    price: 42,
    warranty: 36,
  });
});

test("a new stock goes with the stock the form was opened with", () => {
  expect(changesOf(product, { ...unchanged, availableQuantity: 380 })).toEqual({
    availableQuantity: 380,
    availableQuantityWas: 330,
  });
});

test("part number, category and cross-references are sent when changed, the list whole", () => {
  expect(changesOf(product, { ...unchanged, partNumber: "PW-BP-1002", category: "Other" })).toEqual(
    {
      partNumber: "PW-BP-1002",
      category: "Other",
    },
  );
  const more = [
    ...unchanged.crossReferences,
    { kind: "competitor" as const, brand: "Brembo", number: "P 83 024" },
  ];
  expect(changesOf(product, { ...unchanged, crossReferences: more })).toEqual({
    crossReferences: more,
  });
  expect(changesOf(product, { ...unchanged, crossReferences: [] })).toEqual({
    crossReferences: [],
  });
});

test("a changed shipping weight is sent; the weight it was opened with is not", () => {
  expect(changesOf(product, { ...unchanged, weightGrams: 850 })).toEqual({});
  expect(changesOf(product, { ...unchanged, weightGrams: 1200 })).toEqual({ weightGrams: 1200 });
});

test("dimensions go together: one side changed sends all three; all emptied sends three nulls", () => {
  const measured = { ...product, lengthMm: 300, widthMm: 200, heightMm: 100 };
  const same = { ...unchanged, lengthMm: 300, widthMm: 200, heightMm: 100 };
  expect(changesOf(measured, same)).toEqual({});
  expect(changesOf(measured, { ...same, heightMm: 120 })).toEqual({
    lengthMm: 300,
    widthMm: 200,
    heightMm: 120,
  });
  expect(changesOf(measured, { ...same, lengthMm: null, widthMm: null, heightMm: null })).toEqual({
    lengthMm: null,
    widthMm: null,
    heightMm: null,
  });
  // A product without dimensions, left without them: nothing is sent.
  expect(changesOf(product, unchanged)).toEqual({});
  expect(changesOf(product, { ...unchanged, lengthMm: 300, widthMm: 200, heightMm: 100 })).toEqual({
    lengthMm: 300,
    widthMm: 200,
    heightMm: 100,
  });
});

afterEach(() => vi.unstubAllGlobals());

/** The edit form of `p`, the API answering that it is saved; what the form sends lands in `sent`. */
function renderForm(p: ProductDetail, sent: unknown[], onDone = vi.fn()) {
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init: RequestInit) => {
      sent.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
      return Promise.resolve(Response.json({ ...p, email: "admin@example.com" }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <EditProductForm product={p} onDone={onDone} />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return onDone;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole("button", { name: "Save changes" }));

test("the edit form shows the dimensions; one side emptied is refused beside it, nothing sent", async () => {
  const sent: unknown[] = [];
  renderForm({ ...product, lengthMm: 300, widthMm: 200, heightMm: 100 }, sent);
  expect((screen.getByLabelText("Length (mm)") as HTMLInputElement).value).toBe("300");
  expect((screen.getByLabelText("Width (mm)") as HTMLInputElement).value).toBe("200");
  expect((screen.getByLabelText("Height (mm)") as HTMLInputElement).value).toBe("100");
  type("Width (mm)", "");
  save();
  const width = screen.getByLabelText("Width (mm)");
  await waitFor(() => expect(width.getAttribute("aria-invalid")).toBe("true"));
  expect(document.getElementById(width.getAttribute("aria-describedby")!)!.textContent).toBe(
    productFieldMessages.dimensionsTogether,
  );
  expect(productFieldMessages.dimensionsTogether).toBe(
    "Give the length, width and height together, or none",
  );
  expect(sent).toEqual([]);
});

test("the edit form sends all three sides when one changed, and three nulls when all are emptied", async () => {
  const sent: unknown[] = [];
  const done = renderForm({ ...product, lengthMm: 300, widthMm: 200, heightMm: 100 }, sent);
  type("Height (mm)", "120");
  save();
  await waitFor(() => expect(done).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      url: `/api/products/${product._id}`,
      method: "PATCH",
      body: { lengthMm: 300, widthMm: 200, heightMm: 120 },
    },
  ]);
});

test("the edit form removes the dimensions when all three are emptied", async () => {
  const sent: unknown[] = [];
  const done = renderForm({ ...product, lengthMm: 300, widthMm: 200, heightMm: 100 }, sent);
  for (const label of ["Length (mm)", "Width (mm)", "Height (mm)"]) type(label, "");
  save();
  await waitFor(() => expect(done).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      url: `/api/products/${product._id}`,
      method: "PATCH",
      body: { lengthMm: null, widthMm: null, heightMm: null },
    },
  ]);
});

test("a side of 0 or over 10,000 mm is refused beside it", async () => {
  const sent: unknown[] = [];
  renderForm(product, sent);
  type("Length (mm)", "0");
  type("Width (mm)", "10001");
  type("Height (mm)", "100");
  save();
  await waitFor(() =>
    expect(screen.getByLabelText("Length (mm)").getAttribute("aria-invalid")).toBe("true"),
  );
  expect(screen.getByText(productFieldMessages.dimensionAtLeastOne)).toBeTruthy();
  expect(screen.getByText(productFieldMessages.dimensionAtMost)).toBeTruthy();
  expect(productFieldMessages.dimensionAtLeastOne).toBe("Must be 1 mm or more");
  expect(productFieldMessages.dimensionAtMost).toBe("Must be 10,000 mm or less");
  expect(sent).toEqual([]);
});

test("a product without dimensions saves a weight change, sending no dimensions", async () => {
  const sent: unknown[] = [];
  const done = renderForm(product, sent);
  expect((screen.getByLabelText("Length (mm)") as HTMLInputElement).value).toBe("");
  type("Weight (g)", "4200");
  save();
  await waitFor(() => expect(done).toHaveBeenCalled());
  expect(sent).toEqual([
    { url: `/api/products/${product._id}`, method: "PATCH", body: { weightGrams: 4200 } },
  ]);
});

test("a pack size the minimum order is not a multiple of is refused beside the minimum, nothing sent", async () => {
  const sent: unknown[] = [];
  const done = renderForm({ ...product, minimumOrder: 10, packSize: 1 }, sent);
  type("Pack size", "4");
  save();
  const minimum = screen.getByLabelText("Minimum order");
  await waitFor(() => expect(minimum.getAttribute("aria-invalid")).toBe("true"));
  expect(
    screen.getByText("The minimum order must be a multiple of the pack size (4)"),
  ).toBeTruthy();
  expect(sent).toEqual([]);
  type("Minimum order", "12");
  save();
  await waitFor(() => expect(done).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      url: `/api/products/${product._id}`,
      method: "PATCH",
      body: { minimumOrder: 12, packSize: 4 },
    },
  ]);
});
