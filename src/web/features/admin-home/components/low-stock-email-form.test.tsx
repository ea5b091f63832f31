import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { lowStockEmailWords } from "#contract/admin-home";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { LowStockEmailForm } from "./low-stock-email-form";

undoStubsAfterEach();

const inForce = { enabled: false, hourUtc: 7, updatedAt: null };

test("the admin turns the low-stock email on from 05:00 UTC: it is sent and said", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<LowStockEmailForm />, (method, _url, body) =>
    json(method === "GET" ? inForce : { ...(body as object), updatedAt: "2026-12-06T04:00:00Z" }),
  );
  const box = await screen.findByRole("checkbox", { name: lowStockEmailWords.enabled });
  expect((box as HTMLInputElement).checked).toBe(false);
  const hour = screen.getByLabelText(lowStockEmailWords.hourUtc);
  expect((hour as HTMLInputElement).value).toBe("7");
  expect(screen.getByText(/Not saved yet: these are the store's defaults\./)).toBeTruthy();

  fireEvent.click(box);
  fireEvent.change(hour, { target: { value: "5" } });
  fireEvent.click(screen.getByRole("button", { name: "Save email settings" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "PUT",
    url: "/api/admin-home/low-stock-email",
    body: { enabled: true, hourUtc: 5 },
  });
  await waitFor(() =>
    expect(success).toHaveBeenCalledWith(
      "Low-stock email saved: every admin gets it once a day from 05:00 UTC",
    ),
  );
});

test("an hour outside 0 to 23 is refused beside its field, and nothing is sent", async () => {
  const sent = renderWithApi(<LowStockEmailForm />, () => json(inForce));
  const hour = await screen.findByLabelText(lowStockEmailWords.hourUtc);
  fireEvent.change(hour, { target: { value: "24" } });
  fireEvent.click(screen.getByRole("button", { name: "Save email settings" }));
  expect(await screen.findByText("The hour is a whole number from 0 to 23")).toBeTruthy();
  expect(sent.filter((s) => s.method === "PUT")).toHaveLength(0);
});
