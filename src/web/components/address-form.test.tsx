import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import type { Address } from "#contract/addresses";
import { AddressChoice } from "./address-choice";
import { ShoppingMarketContext, type ShoppingMarket } from "./address-country";
import { AddressForm } from "./address-form";

const europe: ShoppingMarket = { kind: "market", countries: ["DE", "FR", "AT"] };

function renderForm(
  market: ShoppingMarket | undefined,
  props: Partial<Parameters<typeof AddressForm>[0]> = {},
) {
  const onSubmit = vi.fn(() => Promise.resolve());
  const form = <AddressForm submitLabel="Add address" onSubmit={onSubmit} {...props} />;
  const { unmount } = render(
    market ? <ShoppingMarketContext value={market}>{form}</ShoppingMarketContext> : form,
  );
  return Object.assign(onSubmit, { unmount });
}

const country = () => screen.getByLabelText("Country") as HTMLSelectElement;

test("markets off (no market given): a new address starts in the United States, as before", () => {
  renderForm(undefined);
  expect(country().value).toBe("US");
  expect(screen.getByLabelText("State")).toBeTruthy();
  expect(country().options[0]!.value).not.toBe("");
});

test("a buyer in Europe: no country preset, the select asks for one and it is required", async () => {
  const onSubmit = renderForm(europe);
  expect(country().value).toBe("");
  expect(country().selectedOptions[0]?.textContent).toBe("Choose a country");
  expect(screen.queryByLabelText("State")).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Add address" }));
  // Said beside the select (the prompt is its option too), and nothing is sent.
  await waitFor(() => expect(screen.getAllByText("Choose a country")).toHaveLength(2));
  expect(onSubmit).not.toHaveBeenCalled();
  fireEvent.change(country(), { target: { value: "DE" } });
  expect(country().value).toBe("DE");
  expect(country().options[0]!.value).not.toBe("");
  expect(screen.getByText("Like 10115")).toBeTruthy();
});

test("a buyer in the United Kingdom (a market of one country): Great Britain", () => {
  renderForm({ kind: "market", countries: ["GB"] });
  expect(country().value).toBe("GB");
  expect(screen.getByText("Like SW1A 1AA")).toBeTruthy();
});

test("the buyer's default address's country comes before the market's; an edited address keeps its own", () => {
  const added = renderForm(europe, { defaultAddressCountry: "FR" });
  expect(country().value).toBe("FR");
  added.unmount();
  renderForm(europe, { defaultValues: { country: "CA" }, defaultAddressCountry: "FR" });
  expect(country().value).toBe("CA");
});

test("while the market loads the form waits, then starts in its country", () => {
  const form = (market: ShoppingMarket) => (
    <ShoppingMarketContext value={market}>
      <AddressForm submitLabel="Add address" onSubmit={() => Promise.resolve()} />
    </ShoppingMarketContext>
  );
  const { rerender } = render(form({ kind: "pending" }));
  expect(screen.getByText("Loading…")).toBeTruthy();
  expect(screen.queryByLabelText("Country")).toBeNull();
  rerender(form({ kind: "market", countries: ["GB"] }));
  expect(country().value).toBe("GB");
});

const savedInParis: Address = {
  id: "00000000-0000-4000-8000-0000000000b1",
  name: "Kim Kunde",
  company: "",
  line1: "1 Rue de Rivoli",
  line2: "",
  city: "Paris",
  region: "",
  postalCode: "75001",
  country: "FR",
  phone: "0155550100",
  isDefault: true,
  formatted: "Kim Kunde, 1 Rue de Rivoli, 75001 Paris, France",
};

test("checkout's new address: in the market's country, else the default address's", () => {
  const book = (addresses: Address[]) => ({
    addresses,
    companyAddresses: [],
    add: vi.fn(),
    adding: false,
  });
  const { unmount } = render(
    <ShoppingMarketContext value={europe}>
      <AddressChoice book={book([])} value={undefined} onChange={vi.fn()} idPrefix="checkout" />
    </ShoppingMarketContext>,
  );
  expect(screen.getByText("Where should we deliver?")).toBeTruthy();
  expect(country().value).toBe("");
  unmount();
  render(
    <ShoppingMarketContext value={europe}>
      <AddressChoice
        book={book([savedInParis])}
        value={savedInParis.id}
        onChange={vi.fn()}
        idPrefix="checkout"
      />
    </ShoppingMarketContext>,
  );
  fireEvent.click(screen.getByRole("button", { name: "Deliver to a new address" }));
  expect(country().value).toBe("FR");
});
