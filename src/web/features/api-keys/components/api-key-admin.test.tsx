import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { apiKeyMessages as say, type ApiKey, type ApiKeyIssued } from "#contract/api-keys";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { ApiKeyAdmin } from "./api-key-admin";

// The admin's API keys page without a server: what the create form sends (the contract's rules
// checked first), the key shown once with its copy button, and the list's words.

undoStubsAfterEach();

const active: ApiKey = {
  id: "6f1c2a9e-1111-4d6a-9a55-0c6a4f1e2b11",
  name: "Warehouse",
  prefix: "pw_AbCd1234",
  scopes: ["inventory:write", "orders:read"],
  rateLimitPerMinute: 600,
  createdByEmail: "admin@example.com",
  createdAt: "2026-11-02T10:00:00.000Z",
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
  status: "active",
};
const revoked: ApiKey = {
  ...active,
  id: "6f1c2a9e-2222-4d6a-9a55-0c6a4f1e2b11",
  name: "Old ERP",
  prefix: "pw_ZyXw9876",
  revokedAt: "2026-11-03T10:00:00.000Z",
  status: "revoked",
};

const renderPage = (answer: (method: string, url: string, body: unknown) => Response) =>
  renderWithApi(<ApiKeyAdmin />, answer);

test("the list: each key's prefix, scopes, dates and status; a revoked key has no actions", async () => {
  renderPage(() => json([active, revoked]));
  const table = await screen.findByRole("table", { name: "API keys" });
  const rows = within(table).getAllByRole("row").slice(1);
  expect(rows).toHaveLength(2);
  expect(rows[0]!.textContent).toContain("pw_AbCd1234");
  expect(rows[0]!.textContent).toContain("inventory:write");
  expect(rows[0]!.textContent).toContain("Never");
  expect(within(rows[0]!).getByText("Active")).toBeTruthy();
  expect(within(rows[0]!).getByRole("button", { name: "Revoke Warehouse" })).toBeTruthy();
  expect(within(rows[1]!).getByText("Revoked")).toBeTruthy();
  expect(within(rows[1]!).queryByRole("button")).toBeNull();
  expect(screen.getByText("2 keys, 1 not revoked")).toBeTruthy();
});

test("creating: no scope, a bad rate or a past day are refused before sending; the key is shown once", async () => {
  const issued: ApiKeyIssued = {
    apiKey: { ...active, name: "Factory ERP", scopes: ["catalog:read", "orders:read"] },
    key: `pw_AbCd1234_${"k".repeat(43)}`,
  };
  const sent = renderPage((method) => (method === "POST" ? json(issued, 201) : json([])));
  await screen.findByText(say.empty);
  fireEvent.click(screen.getByRole("button", { name: "Create API key" }));
  const dialog = screen.getByRole("dialog", { name: "Create an API key" });
  fireEvent.change(within(dialog).getByLabelText("Name"), { target: { value: "Factory ERP" } });
  fireEvent.change(within(dialog).getByLabelText("Rate limit (requests a minute)"), {
    target: { value: "0" },
  });
  fireEvent.click(within(dialog).getByRole("button", { name: "Create key" }));
  expect(await within(dialog).findByText(say.scopes)).toBeTruthy();
  expect(within(dialog).getByText(say.rate)).toBeTruthy();

  fireEvent.click(within(dialog).getByRole("checkbox", { name: /^orders:read/ }));
  fireEvent.click(within(dialog).getByRole("checkbox", { name: /^catalog:read/ }));
  fireEvent.change(within(dialog).getByLabelText("Rate limit (requests a minute)"), {
    target: { value: "120" },
  });
  fireEvent.change(within(dialog).getByLabelText("Expires on (optional)"), {
    target: { value: "2020-01-01" },
  });
  fireEvent.click(within(dialog).getByRole("button", { name: "Create key" }));
  expect(await within(dialog).findByText(say.expiryPast)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(within(dialog).getByLabelText("Expires on (optional)"), {
    target: { value: "2099-12-31" },
  });
  fireEvent.click(within(dialog).getByRole("button", { name: "Create key" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({
    url: "/api/api-keys",
    method: "POST",
    body: {
      name: "Factory ERP",
      // In the contract's order, whatever order they were ticked in.
      scopes: ["catalog:read", "orders:read"],
      expiresAt: new Date("2099-12-31T23:59:59").toISOString(),
      rateLimitPerMinute: 120,
    },
  });
  const shown = await screen.findByRole("dialog", { name: say.created("Factory ERP") });
  expect(within(shown).getByText(say.copyNow)).toBeTruthy();
  expect(within(shown).getByTestId("issued-api-key").textContent).toBe(issued.key);

  const writeText = vi.fn(() => Promise.resolve());
  vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
  fireEvent.click(within(shown).getByRole("button", { name: "Copy key" }));
  expect(await within(shown).findByRole("button", { name: "Copied" })).toBeTruthy();
  expect(writeText).toHaveBeenCalledWith(issued.key);
  fireEvent.click(within(shown).getByRole("button", { name: "Done" }));
  await waitFor(() => expect(screen.queryByText(issued.key)).toBeNull());
});

test("a copy the browser refuses says to copy the key by hand", async () => {
  const issued: ApiKeyIssued = { apiKey: active, key: `pw_AbCd1234_${"z".repeat(43)}` };
  renderPage((method) => (method === "POST" ? json(issued) : json([active])));
  const row = await screen.findByRole("row", { name: /Warehouse/ });
  fireEvent.click(within(row).getByRole("button", { name: "Rotate Warehouse" }));
  const confirm = screen.getByRole("dialog", { name: say.rotateTitle("Warehouse") });
  expect(confirm.textContent).toContain(say.rotateBody);
  fireEvent.click(within(confirm).getByRole("button", { name: "Rotate key" }));
  const shown = await screen.findByRole("dialog", { name: say.rotated("Warehouse") });
  vi.stubGlobal("navigator", {
    ...navigator,
    clipboard: { writeText: () => Promise.reject(new Error("denied")) },
  });
  fireEvent.click(within(shown).getByRole("button", { name: "Copy key" }));
  expect(await within(shown).findByText(say.copyFailed)).toBeTruthy();
});
