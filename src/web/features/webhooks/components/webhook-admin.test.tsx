import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "vitest";
import {
  webhookMessages as say,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
  type WebhookEndpointIssued,
} from "#contract/webhooks";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { WebhookAdmin } from "./webhook-admin";

// The admin's webhooks page without a server: what the add form sends (the contract's rules
// checked first), the secret shown once, an endpoint disabled by the store saying why, the
// delivery log and a replay.

undoStubsAfterEach();

const endpoint: WebhookEndpoint = {
  id: "6f1c2a9e-1111-4d6a-9a55-0c6a4f1e2b11",
  url: "https://erp.example.com/hooks",
  description: "Factory ERP",
  eventTypes: ["order.placed", "order.paid"],
  status: "disabled",
  disabledReason: "failing",
  disabledAt: "2026-11-03T10:00:00.000Z",
  secretHint: "whsec_AbCd…",
  previousSecretUntil: null,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-03T10:00:00.000Z",
};
const delivery: WebhookDeliveryDetail = {
  id: "6f1c2a9e-3333-4d6a-9a55-0c6a4f1e2b11",
  endpointId: endpoint.id,
  messageId: "msg_6f1c2a9e33334d6a9a550c6a4f1e2b11",
  eventType: "order.placed",
  status: "failed",
  attempts: 10,
  lastResponseStatus: 500,
  lastDurationMs: 31,
  lastError: "Answered 500",
  nextAttemptAt: null,
  createdAt: "2026-11-01T10:00:00.000Z",
  deliveredAt: null,
  requestBody: '{"type":"order.placed","data":{"number":"PW-100001"}}',
  attemptLog: [
    {
      id: "6f1c2a9e-4444-4d6a-9a55-0c6a4f1e2b11",
      attemptedAt: "2026-11-01T10:00:01.000Z",
      requestHeaders: { "webhook-id": "msg_6f1c2a9e33334d6a9a550c6a4f1e2b11" },
      responseStatus: 500,
      responseBody: "down",
      durationMs: 31,
      error: "Answered 500",
    },
  ],
};

const renderPage = (answer: (method: string, url: string) => Response) =>
  renderWithApi(<WebhookAdmin />, answer);

test("adding: no events and a bad URL are refused before sending; the secret is shown once", async () => {
  const issued: WebhookEndpointIssued = {
    endpoint: { ...endpoint, status: "enabled", disabledReason: null, disabledAt: null },
    secret: `whsec_${"A".repeat(32)}`,
  };
  const sent = renderPage((method, url) =>
    method === "POST"
      ? json(issued, 201)
      : url.startsWith("/api/webhook-deliveries")
        ? json({ deliveries: [], page: 1, pageSize: 50, total: 0 })
        : json({ endpoints: [] }),
  );
  await screen.findByText(say.empty);
  fireEvent.click(screen.getByRole("button", { name: "Add endpoint" }));
  const dialog = screen.getByRole("dialog", { name: "Add a webhook endpoint" });
  fireEvent.change(within(dialog).getByLabelText("URL"), { target: { value: "ftp://x" } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
  expect(await within(dialog).findByText(say.events)).toBeTruthy();
  expect(within(dialog).getByText(say.url)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(within(dialog).getByLabelText("URL"), { target: { value: endpoint.url } });
  fireEvent.click(within(dialog).getByRole("checkbox", { name: /^order\.paid/ }));
  fireEvent.click(within(dialog).getByRole("checkbox", { name: /^order\.placed/ }));
  fireEvent.click(within(dialog).getByRole("button", { name: "Add endpoint" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({
    url: "/api/webhook-endpoints",
    method: "POST",
    // In the contract's order, whatever order they were ticked in.
    body: { url: endpoint.url, description: "", eventTypes: ["order.placed", "order.paid"] },
  });
  const shown = await screen.findByRole("dialog", { name: say.created });
  expect(within(shown).getByText(say.copyNow)).toBeTruthy();
  expect(within(shown).getByTestId("webhook-secret").textContent).toBe(issued.secret);
  fireEvent.click(within(shown).getByRole("button", { name: "Done" }));
  await waitFor(() => expect(screen.queryByText(issued.secret)).toBeNull());
});

test("an endpoint the store disabled says why; its log shows each delivery and replays one", async () => {
  const sent = renderPage((method, url) => {
    if (method === "POST") return json({ ...delivery, status: "pending" }, 202);
    if (url.startsWith(`/api/webhook-deliveries/${delivery.id}`)) return json(delivery);
    if (url.startsWith("/api/webhook-deliveries"))
      return json({ deliveries: [delivery], page: 1, pageSize: 50, total: 1 });
    return json({ endpoints: [endpoint] });
  });
  const row = await screen.findByRole("row", { name: /erp\.example\.com/ });
  expect(within(row).getByText(say.disabledFailing)).toBeTruthy();
  expect(within(row).getByRole("button", { name: `Enable ${endpoint.url}` })).toBeTruthy();
  expect(
    (within(row).getByRole("button", { name: `Send test to ${endpoint.url}` }) as HTMLButtonElement)
      .disabled,
  ).toBe(true);
  fireEvent.click(within(row).getByRole("button", { name: `Deliveries to ${endpoint.url}` }));
  const log = await screen.findByRole("table", { name: "Deliveries" });
  const line = within(log).getAllByRole("row")[1]!;
  expect(line.textContent).toContain("order.placed");
  expect(line.textContent).toContain("Failed");
  expect(line.textContent).toContain("500");
  expect(line.textContent).toContain("31 ms");
  fireEvent.click(
    within(line).getByRole("button", { name: `Details of order.placed ${delivery.messageId}` }),
  );
  const details = await screen.findByRole("dialog", { name: "Delivery of order.placed" });
  expect(within(details).getByTestId("webhook-request-body").textContent).toContain("PW-100001");
  expect(within(details).getByText(/answered 500/)).toBeTruthy();
  fireEvent.click(within(details).getByRole("button", { name: "Replay" }));
  await waitFor(() =>
    expect(sent).toEqual([
      { url: `/api/webhook-deliveries/${delivery.id}/replay`, method: "POST", body: undefined },
    ]),
  );
});
