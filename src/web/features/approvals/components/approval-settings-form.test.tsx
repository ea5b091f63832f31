import { screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { approvalSettingsMessages, type ApprovalSettings } from "#contract/approvals";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto, valueOf } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { ApprovalSettingsForm } from "./approval-settings-form";

undoStubsAfterEach();

const defaults: ApprovalSettings = { windowBusinessDays: 3, reminderHours: 24, updatedAt: null };

/**
 * The form, the API answering GET with `current` and PUT with `answer(body)`; returns what the
 * form sends.
 */
const renderForm = (
  current: ApprovalSettings,
  answer: (body: Record<string, number>) => Response,
) =>
  renderWithApi(<ApprovalSettingsForm />, (method, _url, body) =>
    method === "PUT" ? answer(body as Record<string, number>) : Response.json(current),
  );

const WINDOW = "Approval window (business days)";
const REMINDER = "Reminder before it ends (hours)";
const save = () => press("Save settings");

test("shows the settings in force, says when they are the defaults, and saves new ones", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderForm(defaults, (body) =>
    Response.json({ ...body, updatedAt: "2026-12-01T10:00:00.000Z" }),
  );
  await screen.findByLabelText(WINDOW);
  expect(valueOf(WINDOW)).toBe("3");
  expect(valueOf(REMINDER)).toBe("24");
  expect(screen.getByText(approvalSettingsMessages.defaultsInForce, { exact: false })).toBeTruthy();
  expect(approvalSettingsMessages.defaultsInForce).toBe(
    "Not saved yet: these are the store's defaults.",
  );

  typeInto(WINDOW, "5");
  typeInto(REMINDER, "30");
  save();
  await waitFor(() => expect(success).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      url: "/api/approvals/settings",
      method: "PUT",
      body: { windowBusinessDays: 5, reminderHours: 30 },
    },
  ]);
  expect(success).toHaveBeenCalledWith(
    "Approval settings saved: 5 business days, owners reminded 30 hours before the end",
  );
  expect(success.mock.calls[0]![0]).toBe(
    approvalSettingsMessages.saved({ windowBusinessDays: 5, reminderHours: 30 }),
  );
  // Saved: the form starts afresh from the answer, no longer the defaults.
  await waitFor(() =>
    expect(
      screen.queryByText(approvalSettingsMessages.defaultsInForce, { exact: false }),
    ).toBeNull(),
  );
  expect(valueOf(WINDOW)).toBe("5");
});

test("a window out of range or a reminder not before its end is refused beside the field, nothing sent", async () => {
  const sent = renderForm(defaults, () => Response.json({}));
  await screen.findByLabelText(WINDOW);
  typeInto(WINDOW, "31");
  typeInto(REMINDER, "0");
  save();
  await waitFor(() => expect(errorOf(WINDOW)).toBe(approvalSettingsMessages.window));
  expect(errorOf(REMINDER)).toBe(approvalSettingsMessages.reminder);
  expect(approvalSettingsMessages.window).toBe(
    "The approval window is a whole number of business days from 1 to 30",
  );
  expect(approvalSettingsMessages.reminder).toBe(
    "The reminder is a whole number of hours, at least 1",
  );

  typeInto(WINDOW, "1");
  typeInto(REMINDER, "24");
  save();
  await waitFor(() =>
    expect(errorOf(REMINDER)).toBe(approvalSettingsMessages.reminderBeforeEnd(1)),
  );
  expect(errorOf(WINDOW)).toBeNull();
  expect(approvalSettingsMessages.reminderBeforeEnd(1)).toBe(
    "The reminder must come before the window ends: fewer than 24 hours for 1 business day",
  );
  expect(sent).toEqual([]);
});

test("the API's refusal is shown beside its field", async () => {
  const message = approvalSettingsMessages.reminderBeforeEnd(2);
  const sent = renderForm(
    { windowBusinessDays: 2, reminderHours: 12, updatedAt: "2026-12-01T10:00:00.000Z" },
    () =>
      Response.json(
        {
          error: "validation",
          message: `reminderHours: ${message}`,
          fields: { reminderHours: message },
        },
        { status: 400 },
      ),
  );
  await screen.findByLabelText(WINDOW);
  expect(screen.queryByText(approvalSettingsMessages.defaultsInForce, { exact: false })).toBeNull();
  typeInto(REMINDER, "20");
  save();
  await waitFor(() => expect(errorOf(REMINDER)).toBe(message));
  expect(sent).toHaveLength(1);
  expect(screen.queryByRole("alert")).toBeNull();
});
