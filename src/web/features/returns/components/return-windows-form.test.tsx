import { screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { returnWindowMessages, type ReturnWindows } from "#contract/returns";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto, valueOf } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { ReturnWindowsForm } from "./return-windows-form";

undoStubsAfterEach();

const PARTS = "Parts (days after shipping; 0: no returns)";
const CORES = "Cores (days after shipping; 0: no core returns)";

const renderForm = (current: ReturnWindows, answer: (body: Record<string, number>) => Response) =>
  renderWithApi(<ReturnWindowsForm />, (method, _url, body) =>
    method === "PUT" ? answer(body as Record<string, number>) : Response.json(current),
  );

test("shows the windows in force, says when they are the defaults, and saves new ones", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderForm({ days: 30, coreDays: 90, updatedAt: null }, (body) =>
    Response.json({ ...body, updatedAt: "2026-12-05T10:00:00.000Z" }),
  );
  await screen.findByLabelText(PARTS);
  expect(valueOf(PARTS)).toBe("30");
  expect(valueOf(CORES)).toBe("90");
  expect(screen.getByText(returnWindowMessages.defaultsInForce, { exact: false })).toBeTruthy();

  typeInto(PARTS, "0");
  typeInto(CORES, "1");
  press("Save windows");
  await waitFor(() => expect(success).toHaveBeenCalled());
  expect(sent).toEqual([
    { url: "/api/returns/windows", method: "PUT", body: { days: 0, coreDays: 1 } },
  ]);
  expect(success).toHaveBeenCalledWith(
    "Return windows saved: parts not returnable, cores 1 day after shipping",
  );
  await waitFor(() =>
    expect(screen.queryByText(returnWindowMessages.defaultsInForce, { exact: false })).toBeNull(),
  );
  expect(valueOf(PARTS)).toBe("0");
});

test("a window out of range is refused beside its field, nothing sent", async () => {
  const sent = renderForm({ days: 30, coreDays: 90, updatedAt: "2026-12-05T10:00:00.000Z" }, () =>
    Response.json({}),
  );
  await screen.findByLabelText(PARTS);
  typeInto(PARTS, "-3");
  typeInto(CORES, "3651");
  press("Save windows");
  await waitFor(() => expect(errorOf(PARTS)).toBe(returnWindowMessages.days));
  expect(errorOf(CORES)).toBe(returnWindowMessages.coreDays);
  expect(returnWindowMessages.coreDays).toBe(
    "The core return window is a whole number of days from 0 to 3650",
  );
  expect(sent).toEqual([]);
});
