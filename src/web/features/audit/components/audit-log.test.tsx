import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { AuditEntry } from "#contract/audit";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { AuditLog } from "./audit-log";

undoStubsAfterEach();

const entry: AuditEntry = {
  _id: "1",
  at: "2026-12-05T22:22:31.000Z",
  actorId: "a",
  actorEmail: "admin@example.com",
  action: "return.windows",
  targetType: "return",
  targetId: "windows",
  summary: "Set the return windows: parts 45 days after shipping, cores 90 days after shipping",
};

test("an entry's time reads as the store's other times do, whatever the browser's language", async () => {
  renderWithApi(<AuditLog />, () => Response.json([entry], { headers: { "X-Total-Count": "1" } }));
  const when = await screen.findByText(/^\d{1,2} [A-Z][a-z]{2} 2026, \d{1,2}:\d{2} [AP]M$/);
  expect(when.tagName).toBe("TIME");
  expect(when.getAttribute("datetime")).toBe(entry.at);
  expect(screen.getByText(entry.summary)).toBeTruthy();
});
