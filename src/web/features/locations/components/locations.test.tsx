import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { locationMessages, type Location, type ProductStock as Stock } from "#contract/locations";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { LocationsPage } from "./locations-page";
import { ProductStock } from "./product-stock";

undoStubsAfterEach();

const PRODUCT = "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11";
const MAIN = "5d0f0a4e-2222-4d6a-9a55-0c6a4f1e2b11";
const CHI = "6e1f0a4e-3333-4d6a-9a55-0c6a4f1e2b11";

const home: Location = {
  id: MAIN,
  code: "MAIN",
  name: "Main warehouse",
  line1: "",
  city: "",
  region: "",
  postalCode: "",
  country: "US",
  servesCountries: [],
  servesRegions: [],
  priority: 100,
  isHome: true,
  active: true,
  dispatchDays: 1,
  cutoffHour: null,
};

const stock: Stock = {
  productId: PRODUCT,
  name: "Brake caliper",
  partNumber: "PW-BC-1",
  availableQuantity: 40,
  backorders: { takes: false, leadDays: null, waiting: 0 },
  locations: [
    {
      locationId: MAIN,
      code: "MAIN",
      name: "Main warehouse",
      isHome: true,
      active: true,
      onSale: 10,
      allocated: 2,
      onHand: 12,
      reorderLevel: null,
      low: false,
    },
    {
      locationId: CHI,
      code: "CHI",
      name: "Chicago warehouse",
      isHome: false,
      active: true,
      onSale: 30,
      allocated: 0,
      onHand: 30,
      reorderLevel: 30,
      low: true,
    },
  ],
};

test("adding a location sends the contract's body: the lists split, codes upper-cased, the priority a number", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<LocationsPage />, (method) =>
    method === "GET" ? json([home]) : json({ ...home, id: CHI, code: "CHI", isHome: false }, 201),
  );
  expect(await screen.findByText("Home")).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Add a location" }));
  const form = screen.getByRole("form", { name: "Add a location" });
  fireEvent.change(within(form).getByLabelText("Code"), { target: { value: "C HI" } });
  fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "Chicago warehouse" } });
  fireEvent.change(within(form).getByLabelText("Serves countries"), {
    target: { value: "us, ca" },
  });
  fireEvent.click(within(form).getByRole("button", { name: "Save" }));
  expect(await within(form).findByText(locationMessages.codeFormat)).toBeTruthy();
  expect(sent).toEqual([]);
  fireEvent.change(within(form).getByLabelText("Code"), { target: { value: "CHI" } });
  fireEvent.change(within(form).getByLabelText("Serves regions"), { target: { value: "il" } });
  fireEvent.change(within(form).getByLabelText("Priority"), { target: { value: "10" } });
  fireEvent.click(within(form).getByRole("button", { name: "Save" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "POST",
    url: "/api/locations",
    body: {
      code: "CHI",
      name: "Chicago warehouse",
      country: "US",
      servesCountries: ["US", "CA"],
      servesRegions: ["IL"],
      priority: 10,
      active: true,
    },
  });
});

test("a product's stock shows each location's numbers and Low; a count sends on hand and an empty reorder level as none", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<ProductStock productId={PRODUCT} />, () => json(stock));
  const rows = await screen.findAllByTestId("location-stock");
  expect(rows.map((r) => within(r).getByTestId("on-hand").textContent)).toEqual(["12", "30"]);
  expect(within(rows[0]!).getByTestId("allocated").textContent).toBe("2");
  expect(within(rows[1]!).getByText("Low")).toBeTruthy();
  expect(within(rows[0]!).queryByText("Low")).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Count at MAIN" }));
  const form = screen.getByRole("form", { name: "Count at MAIN" });
  expect(within(form).getByText(/2 of them are allocated to orders/)).toBeTruthy();
  fireEvent.change(within(form).getByLabelText("On hand"), { target: { value: "15" } });
  fireEvent.click(within(form).getByRole("button", { name: "Save" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "PUT",
    url: `/api/locations/${MAIN}/stock/${PRODUCT}`,
    body: { onHand: 15, reorderLevel: null },
  });
});

test("a transfer's refusal is said in the dialog; one location to itself is refused before sending", async () => {
  const sent = renderWithApi(<ProductStock productId={PRODUCT} />, (method, url) =>
    method === "GET"
      ? json(url.includes("transfers") ? [] : stock)
      : json({ error: "rule_broken", message: locationMessages.notEnoughOnSale(30, "CHI") }, 422),
  );
  fireEvent.click(await screen.findByRole("button", { name: "Transfer" }));
  const form = screen.getByRole("form", { name: "Transfer PW-BC-1" });
  fireEvent.change(within(form).getByLabelText("To"), { target: { value: CHI } });
  fireEvent.change(within(form).getByLabelText("Units"), { target: { value: "31" } });
  fireEvent.click(within(form).getByRole("button", { name: "Transfer" }));
  expect(await within(form).findByText(locationMessages.sameLocation)).toBeTruthy();
  expect(sent).toEqual([]);
  fireEvent.change(within(form).getByLabelText("To"), { target: { value: MAIN } });
  fireEvent.click(within(form).getByRole("button", { name: "Transfer" }));
  expect(await within(form).findByRole("alert")).toHaveProperty(
    "textContent",
    locationMessages.notEnoughOnSale(30, "CHI"),
  );
  expect(sent[0]).toMatchObject({
    method: "POST",
    url: "/api/locations/transfers",
    body: { productId: PRODUCT, fromLocationId: CHI, toLocationId: MAIN, qty: 31 },
  });
});
