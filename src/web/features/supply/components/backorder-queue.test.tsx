import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "vitest";
import { backorderQueueWords, type QueuedBackorder } from "#contract/backorder-queue";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { BackorderQueue } from "./backorder-queue";

undoStubsAfterEach();

const dated: QueuedBackorder = {
  id: "0b7a4c8e-4444-4d6a-9a55-0c6a4f1e2b11",
  orderId: "0b7a4c8e-5555-4d6a-9a55-0c6a4f1e2b11",
  orderNumber: "PW-100234",
  line: 1,
  customerName: "Dana Fleet",
  customerEmail: "dana@example.com",
  companyName: "Harbor Garage",
  productId: "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11",
  productName: "Brake caliper",
  partNumber: "PW-BC-1",
  qty: 6,
  waiting: 4,
  promisedOn: "2027-01-12",
  placedAt: "2026-12-01T10:00:00.000Z",
  shipComplete: true,
};
const undated: QueuedBackorder = {
  ...dated,
  id: "0b7a4c8e-6666-4d6a-9a55-0c6a4f1e2b11",
  orderId: "0b7a4c8e-7777-4d6a-9a55-0c6a4f1e2b11",
  orderNumber: "PW-100240",
  customerName: "Sam Driver",
  customerEmail: "sam@example.com",
  companyName: null,
  qty: 3,
  waiting: 3,
  promisedOn: null,
  shipComplete: false,
};

/** A page of the queue as the API answers it: the rows, and how many in all in X-Total-Count. */
const page = (rows: QueuedBackorder[], total = rows.length) =>
  new Response(JSON.stringify(rows), {
    status: 200,
    headers: { "content-type": "application/json", "x-total-count": String(total) },
  });

test("each waiting line says its order, buyer, part, units, date and how it ships, first placed first", async () => {
  const urls: string[] = [];
  renderWithApi(<BackorderQueue />, (_method, url) => {
    urls.push(url);
    return page([dated, undated]);
  });
  const rows = await screen.findAllByTestId("backorder");
  expect(rows).toHaveLength(2);
  const first = within(rows[0]!);
  expect(first.getByRole("link", { name: "PW-100234" }).getAttribute("href")).toBe(
    `/dashboard/orders/${dated.orderId}`,
  );
  expect(first.getByText("Harbor Garage")).toBeTruthy();
  expect(first.getByText("PW-BC-1")).toBeTruthy();
  expect(first.getByTestId("backorder-waiting").textContent).toBe("4 of 6");
  expect(first.getByTestId("backorder-promised").textContent).toBe("12 Jan 2027");
  expect(first.getByTestId("backorder-ships").textContent).toBe(backorderQueueWords.shipsComplete);
  const second = within(rows[1]!);
  expect(second.getByTestId("backorder-waiting").textContent).toBe("3");
  expect(second.getByTestId("backorder-promised").textContent).toBe("no date yet");
  expect(second.getByTestId("backorder-ships").textContent).toBe("Ships what is there");
  expect(screen.getByText("2 order lines wait for supply")).toBeTruthy();
  expect(urls[0]).toBe("/api/backorders?limit=25&offset=0");
});

test("a search asks the API and says when nothing matches; an empty queue says so", async () => {
  const urls: string[] = [];
  renderWithApi(<BackorderQueue />, (_method, url) => {
    urls.push(url);
    return page([]);
  });
  expect(await screen.findByText(backorderQueueWords.empty)).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Search backorders"), { target: { value: "PW-9" } });
  fireEvent.click(screen.getByRole("button", { name: "Search" }));
  await waitFor(() => expect(urls.some((u) => u.includes("q=PW-9"))).toBe(true));
  expect(await screen.findByText(backorderQueueWords.noMatch("PW-9"))).toBeTruthy();
});
