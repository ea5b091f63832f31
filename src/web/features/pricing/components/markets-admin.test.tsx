import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { marketMessages } from "#contract/markets";
import { notify } from "../../../lib/notify";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { europeMarket as europe, usMarket as us } from "../../../../../tests/support/web-markets";
import { MarketsAdmin } from "./markets-admin";

undoStubsAfterEach();

test("the list says each market's rate, rounding and prices; a new market is checked, then sent as the API takes it", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const nordics = { ...europe, id: "0b7a4c8e-2222-4d6a-9a55-0c6a4f1e2b11", code: "NORDIC" };
  const sent = renderWithApi(<MarketsAdmin />, (method, url) => {
    if (url.startsWith("/api/config")) return json({ currency: "USD" });
    if (method === "GET") return json([us, europe]);
    return json({ ...nordics, name: "Nordics", rate: 10.5, countries: ["DK", "SE"] }, 201);
  });
  const rows = await screen.findAllByTestId("market-row");
  expect(rows[0]!.textContent).toContain("United States (US) · Default");
  expect(rows[0]!.textContent).toContain("1 USD = 1 USD");
  expect(rows[1]!.textContent).toContain("1 USD = 0.92 EUR");
  expect(rows[1]!.textContent).toContain("VAT included");
  expect(rows[1]!.textContent).toContain("To the cent");
  expect(rows[1]!.textContent).toContain("DE FR");
  expect(rows[1]!.textContent).toContain("$19.99 → €18.39");

  const form = within(screen.getByRole("form", { name: "New market" }));
  const box = (label: string | RegExp) => form.getByLabelText(label) as HTMLInputElement;
  fireEvent.change(box("Countries"), { target: { value: "se XX" } });
  fireEvent.change(box(/Exchange rate/), { target: { value: "0" } });
  fireEvent.click(form.getByRole("button", { name: "Create market" }));
  await waitFor(() => expect(form.getByText(marketMessages.code)).toBeTruthy());
  expect(form.getByText("XX is not an ISO country code")).toBeTruthy();
  expect(form.getByText(marketMessages.rate)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(box("Code"), { target: { value: "nordic" } });
  fireEvent.change(box("Name"), { target: { value: "Nordics" } });
  fireEvent.change(box("Countries"), { target: { value: "se, dk" } });
  fireEvent.change(box(/Exchange rate/), { target: { value: "10.5" } });
  fireEvent.change(box("Rounding"), { target: { value: "end99" } });
  fireEvent.click(box("Consumers see prices with VAT included"));
  fireEvent.click(form.getByRole("button", { name: "Create market" }));
  await waitFor(() => expect(success).toHaveBeenCalledWith("Created Nordics: 1 USD = 10.5 EUR"));
  expect(sent).toEqual([
    {
      method: "POST",
      url: "/api/markets",
      body: {
        code: "NORDIC",
        name: "Nordics",
        currency: "EUR",
        countries: ["SE", "DK"],
        pricesIncludeTax: true,
        rate: 10.5,
        rounding: "end99",
        active: true,
      },
    },
  ]);
});

test("Edit: the market's values in a dialog; the API's refusal is shown beside the field", async () => {
  const sent = renderWithApi(<MarketsAdmin />, (method, url) => {
    if (url.startsWith("/api/config")) return json({ currency: "USD" });
    if (method === "GET") return json([us, europe]);
    const message = marketMessages.countryTaken("GB", "United Kingdom");
    return json({ error: "conflict", message, fields: { countries: message } }, 409);
  });
  fireEvent.click(await screen.findByRole("button", { name: "Edit Europe" }));
  const dialog = within(await screen.findByRole("dialog", { name: "Edit the market Europe" }));
  const countries = dialog.getByLabelText("Countries") as HTMLInputElement;
  expect(countries.value).toBe("DE FR");
  expect((dialog.getByLabelText(/Exchange rate/) as HTMLInputElement).value).toBe("0.92");
  fireEvent.change(countries, { target: { value: "DE FR GB" } });
  fireEvent.click(dialog.getByRole("button", { name: "Save" }));
  await waitFor(() =>
    expect(
      dialog.getByText("United Kingdom (GB) belongs to the market United Kingdom already"),
    ).toBeTruthy(),
  );
  expect(sent).toMatchObject([
    { method: "PATCH", url: `/api/markets/${europe.id}`, body: { countries: ["DE", "FR", "GB"] } },
  ]);
});

test.each([
  [true, "Buyers choose theirs in the navbar, or their default delivery country does"],
  [
    false,
    "Buyers cannot choose a market (MARKET_CHOICE is off): every price, order and payment is in USD.",
  ],
])(
  "the screen says whether buyers choose a market (MARKET_CHOICE %s)",
  async (marketChoice, words) => {
    renderWithApi(<MarketsAdmin />, (_method, url) =>
      url.startsWith("/api/config") ? json({ currency: "USD", marketChoice }) : json([us, europe]),
    );
    expect(await screen.findByText(words, { exact: false })).toBeTruthy();
  },
);
