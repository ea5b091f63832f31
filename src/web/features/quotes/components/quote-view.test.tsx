import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, expect, test, vi } from "vitest";
import type { QuoteDetail } from "#contract/quotes";
import { QuoteView } from "./quote-view";

// A quote asked in Europe is in EUR (docs/quotes.md "In the buyer's market"): the admin prices
// it in EUR (the code beside each price field), and the buyer reads it in EUR.

afterEach(() => vi.unstubAllGlobals());

const PART = "00000000-0000-4000-8000-000000000001";

const euroQuote: QuoteDetail = {
  id: "00000000-0000-4000-8000-0000000000aa",
  reference: "Q-10001",
  status: "requested",
  requesterName: "Greta Buyer",
  requesterEmail: "greta@example.com",
  companyName: "Berlin Fleet GmbH",
  note: "",
  lines: [
    {
      productId: PART,
      productName: "Brake pad set",
      partNumber: "BP-1",
      qty: 2,
      seenPrice: 23.79,
      quotedPrice: null,
      lineTotal: null,
    },
  ],
  total: null,
  currency: "EUR",
  createdAt: "2026-12-05T08:00:00.000Z",
  sentAt: null,
  expiresAt: null,
  orderId: null,
  orderNumber: null,
  canDecide: false,
  canWrite: true,
  messages: [],
};

function show(quote: QuoteDetail, admin: boolean) {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify(quote), { headers: { "content-type": "application/json" } }),
    ),
  );
  const book = { addresses: [], companyAddresses: [], add: vi.fn(), adding: false };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <QuoteView id={quote.id} admin={admin} book={book} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

test("the admin prices a quote asked in Europe in EUR: the code beside each price, the buyer's price in €", async () => {
  show(euroQuote, true);
  expect((await screen.findByTestId("quote-currency")).textContent).toBe("Prices in EUR");
  const field = screen.getByLabelText("Unit price for Brake pad set");
  expect((field as HTMLInputElement).value).toBe("23.79");
  expect(field.closest("label")!.nextElementSibling!.textContent).toBe("EUR");
  expect(screen.getByText("Their price then: €23.79")).toBeTruthy();
  expect(document.body.textContent).not.toContain("$");
});

test("the buyer reads a sent quote in EUR: unit prices, line totals and the total in €", async () => {
  show(
    {
      ...euroQuote,
      status: "sent",
      total: 40,
      lines: [{ ...euroQuote.lines[0]!, quotedPrice: 20, lineTotal: 40 }],
    },
    false,
  );
  const line = await screen.findByTestId("quote-line");
  expect(within(line).getByText("€23.79")).toBeTruthy();
  expect(within(line).getByText("€20.00")).toBeTruthy();
  expect(within(line).getByText("€40.00")).toBeTruthy();
  expect(screen.getAllByTestId("quote-total")[0]!.textContent).toBe("€40.00");
  expect(screen.getByTestId("quote-currency").textContent).toBe("Prices in EUR");
});

test("a consumer's quote in a market that shows VAT says its prices include it", async () => {
  show(
    {
      ...euroQuote,
      status: "accepted",
      pricesIncludeTax: true,
      taxRate: 19,
      total: 47.6,
      lines: [{ ...euroQuote.lines[0]!, quotedPrice: 23.8, lineTotal: 47.6 }],
    },
    false,
  );
  expect((await screen.findByTestId("quote-currency")).textContent).toBe(
    "Prices in EUR, incl. 19 % VAT",
  );
});
