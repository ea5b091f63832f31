import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { approvalSettingsMessages, type ApprovalSettings } from "#contract/approvals";
import { notify } from "../../../lib/notify";
import { ApprovalSettingsForm } from "./approval-settings-form";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const defaults: ApprovalSettings = { windowBusinessDays: 3, reminderHours: 24, updatedAt: null };

/**
 * The form, the API answering GET with `current` and PUT with `answer(body)`; what the form
 * sends lands in `sent`.
 */
function renderForm(
  current: ApprovalSettings,
  answer: (body: Record<string, number>) => Response,
  sent: unknown[],
) {
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === "PUT") {
        const body = JSON.parse(String(init.body)) as Record<string, number>;
        sent.push({ url, method: init.method, body });
        return Promise.resolve(answer(body));
      }
      return Promise.resolve(Response.json(current));
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <ApprovalSettingsForm />
    </QueryClientProvider>,
  );
}

const WINDOW = "Approval window (business days)";
const REMINDER = "Reminder before it ends (hours)";
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole("button", { name: "Save settings" }));
const errorOf = (label: string) => {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute("aria-describedby");
  return id ? document.getElementById(id)!.textContent : null;
};

test("shows the settings in force, says when they are the defaults, and saves new ones", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent: unknown[] = [];
  renderForm(
    defaults,
    (body) => Response.json({ ...body, updatedAt: "2026-12-01T10:00:00.000Z" }),
    sent,
  );
  expect(((await screen.findByLabelText(WINDOW)) as HTMLInputElement).value).toBe("3");
  expect((screen.getByLabelText(REMINDER) as HTMLInputElement).value).toBe("24");
  expect(screen.getByText(approvalSettingsMessages.defaultsInForce, { exact: false })).toBeTruthy();
  expect(approvalSettingsMessages.defaultsInForce).toBe(
    "Not saved yet: these are the store's defaults.",
  );

  type(WINDOW, "5");
  type(REMINDER, "30");
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
  expect((screen.getByLabelText(WINDOW) as HTMLInputElement).value).toBe("5");
});

test("a window out of range or a reminder not before its end is refused beside the field, nothing sent", async () => {
  const sent: unknown[] = [];
  renderForm(defaults, () => Response.json({}), sent);
  await screen.findByLabelText(WINDOW);
  type(WINDOW, "31");
  type(REMINDER, "0");
  save();
  await waitFor(() => expect(errorOf(WINDOW)).toBe(approvalSettingsMessages.window));
  expect(errorOf(REMINDER)).toBe(approvalSettingsMessages.reminder);
  expect(approvalSettingsMessages.window).toBe(
    "The approval window is a whole number of business days from 1 to 30",
  );
  expect(approvalSettingsMessages.reminder).toBe(
    "The reminder is a whole number of hours, at least 1",
  );

  type(WINDOW, "1");
  type(REMINDER, "24");
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
  const sent: unknown[] = [];
  const message = approvalSettingsMessages.reminderBeforeEnd(2);
  renderForm(
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
    sent,
  );
  await screen.findByLabelText(WINDOW);
  expect(screen.queryByText(approvalSettingsMessages.defaultsInForce, { exact: false })).toBeNull();
  type(REMINDER, "20");
  save();
  await waitFor(() => expect(errorOf(REMINDER)).toBe(message));
  expect(sent).toHaveLength(1);
  expect(screen.queryByRole("alert")).toBeNull();
});
