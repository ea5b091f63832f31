import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { europeMarket as europe, usMarket as us } from "../../../../../tests/support/web-markets";
import { AddressForm } from "../../../components/address-form";
import { MarketPicker, rememberedMarket, ShoppingMarketProvider } from "./market-picker";

undoStubsAfterEach();

const config = (marketChoice: boolean) => ({
  currency: "USD",
  socialProviders: [],
  payments: { gateway: "test-card" },
  marketChoice,
});

test("buyers choose a market: the active markets, the remembered one chosen; choosing opens the page with ?market=", async () => {
  document.cookie = "market=EU";
  const assign = vi.fn();
  vi.stubGlobal("location", { href: "http://store.test/allproducts?category=Brakes", assign });
  renderWithApi(<MarketPicker />, (_method, url) =>
    url.startsWith("/api/config")
      ? json(config(true))
      : json([us, europe, { ...europe, code: "OFF", name: "Off", active: false }]),
  );
  const picker = (await screen.findByLabelText("Market")) as HTMLSelectElement;
  expect([...picker.options].map((o) => o.textContent)).toEqual(["US (USD)", "EU (EUR)"]);
  expect(picker.value).toBe("EU");
  fireEvent.change(picker, { target: { value: "US" } });
  expect(assign).toHaveBeenCalledWith("http://store.test/allproducts?category=Brakes&market=US");
  document.cookie = "market=; max-age=0";
});

test("while buyers cannot choose (MARKET_CHOICE off) there is no picker, and the markets are not asked", async () => {
  const asked: string[] = [];
  renderWithApi(<MarketPicker />, (_method, url) => {
    asked.push(url);
    return url.startsWith("/api/config") ? json(config(false)) : json([us, europe]);
  });
  await waitFor(() => expect(asked).toEqual(["/api/config"]));
  expect(screen.queryByLabelText("Market")).toBeNull();
  expect(asked).toEqual(["/api/config"]);
});

test("the remembered market: the cookie's code, any case; none without it", () => {
  expect(rememberedMarket("a=1; market=eu; b=2")).toBe("EU");
  expect(rememberedMarket("supermarket=EU")).toBeUndefined();
  expect(rememberedMarket("")).toBeUndefined();
});

const newAddress = (
  <ShoppingMarketProvider>
    <AddressForm submitLabel="Add address" onSubmit={() => Promise.resolve()} />
  </ShoppingMarketProvider>
);
const country = async () => (await screen.findByLabelText("Country")) as HTMLSelectElement;

test("a new address starts in the chosen market: Europe's several countries ask for one, the United Kingdom's is its own", async () => {
  document.cookie = "market=EU";
  const markets = [
    us,
    europe,
    { ...europe, code: "GB", name: "United Kingdom", countries: ["GB"] },
  ];
  const answer = (_method: string, url: string) =>
    url.startsWith("/api/config") ? json(config(true)) : json(markets);
  renderWithApi(newAddress, answer);
  expect((await country()).value).toBe("");
  cleanup();
  document.cookie = "market=GB";
  renderWithApi(newAddress, answer);
  expect((await country()).value).toBe("GB");
  document.cookie = "market=; max-age=0";
});

test("a new address with markets off, or in the default market: the United States", async () => {
  document.cookie = "market=EU";
  renderWithApi(newAddress, (_method, url) =>
    url.startsWith("/api/config") ? json(config(false)) : json([us, europe]),
  );
  expect((await country()).value).toBe("US");
  cleanup();
  document.cookie = "market=; max-age=0";
  renderWithApi(newAddress, (_method, url) =>
    url.startsWith("/api/config") ? json(config(true)) : json([us, europe]),
  );
  expect((await country()).value).toBe("US");
});
