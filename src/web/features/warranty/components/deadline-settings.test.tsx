import { render, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import {
  warrantyDeadlineMessages,
  type WarrantyDeadlineSettings,
} from "#contract/warranty-deadlines";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto, valueOf } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { ClaimDeadlineNote } from "./claim-deadline";
import { DeadlineSettingsForm } from "./deadline-settings";

undoStubsAfterEach();

const defaults: WarrantyDeadlineSettings = {
  claimantDays: 14,
  storeDays: 5,
  reminderDays: 2,
  updatedAt: null,
};

const CLAIMANT = "The claimant's days to answer or send the part back";
const STORE = "The store's days to act";
const REMINDER = "Reminder before a deadline (days)";
const save = () => press("Save deadlines");

test("shows the settings in force, says when they are the defaults, and saves new ones", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<DeadlineSettingsForm />, (method, _url, body) =>
    method === "PUT"
      ? json({ ...(body as object), updatedAt: "2026-12-04T10:00:00.000Z" })
      : json(defaults),
  );
  await screen.findByLabelText(CLAIMANT);
  expect([valueOf(CLAIMANT), valueOf(STORE), valueOf(REMINDER)]).toEqual(["14", "5", "2"]);
  expect(screen.getByText(warrantyDeadlineMessages.defaultsInForce, { exact: false })).toBeTruthy();

  typeInto(CLAIMANT, "21");
  typeInto(STORE, "3");
  typeInto(REMINDER, "1");
  save();
  await waitFor(() => expect(success).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      url: "/api/warranty/settings",
      method: "PUT",
      body: { claimantDays: 21, storeDays: 3, reminderDays: 1 },
    },
  ]);
  expect(success).toHaveBeenCalledWith(
    "Deadlines saved: the claimant 21 days, the store 3 days, reminders 1 day before",
  );
  // Saved: the form starts afresh from the answer, no longer the defaults.
  await waitFor(() =>
    expect(
      screen.queryByText(warrantyDeadlineMessages.defaultsInForce, { exact: false }),
    ).toBeNull(),
  );
  expect(valueOf(CLAIMANT)).toBe("21");
});

test("days out of range, or a reminder not before the shortest deadline, are refused beside the field, nothing sent", async () => {
  const sent = renderWithApi(<DeadlineSettingsForm />, () => json(defaults));
  await screen.findByLabelText(CLAIMANT);
  typeInto(CLAIMANT, "0");
  typeInto(STORE, "91");
  typeInto(REMINDER, "-1");
  save();
  await waitFor(() => expect(errorOf(CLAIMANT)).toBe(warrantyDeadlineMessages.claimantDays));
  expect(errorOf(STORE)).toBe(warrantyDeadlineMessages.storeDays);
  expect(errorOf(REMINDER)).toBe(warrantyDeadlineMessages.reminderDays);
  expect(warrantyDeadlineMessages.storeDays).toBe(
    "The store's days are a whole number from 1 to 90",
  );

  typeInto(CLAIMANT, "14");
  typeInto(STORE, "3");
  typeInto(REMINDER, "3");
  save();
  await waitFor(() =>
    expect(errorOf(REMINDER)).toBe(warrantyDeadlineMessages.reminderBeforeDeadline(3)),
  );
  expect(errorOf(CLAIMANT)).toBeNull();
  expect(errorOf(STORE)).toBeNull();
  expect(sent).toEqual([]);
});

test("the API's refusal is shown beside its field", async () => {
  const message = warrantyDeadlineMessages.reminderBeforeDeadline(5);
  const sent = renderWithApi(<DeadlineSettingsForm />, (method) =>
    method === "PUT"
      ? json(
          {
            error: "validation",
            message: `reminderDays: ${message}`,
            fields: { reminderDays: message },
          },
          400,
        )
      : json({ ...defaults, updatedAt: "2026-12-01T10:00:00.000Z" }),
  );
  await screen.findByLabelText(CLAIMANT);
  expect(screen.queryByText(warrantyDeadlineMessages.defaultsInForce, { exact: false })).toBeNull();
  typeInto(REMINDER, "4");
  save();
  await waitFor(() => expect(errorOf(REMINDER)).toBe(message));
  expect(sent).toHaveLength(1);
});

test("a claim's deadline says whose move, by when, and overdue; nothing once decided", () => {
  const { rerender } = render(
    <ClaimDeadlineNote
      claim={{
        status: "information_requested",
        deadline: { side: "claimant", dueOn: "2026-12-14", overdue: false },
      }}
      store={false}
    />,
  );
  expect(screen.getByTestId("claim-deadline").textContent).toBe(
    "Waiting for you: answer by 14 Dec 2026",
  );
  rerender(
    <ClaimDeadlineNote
      claim={{
        status: "submitted",
        deadline: { side: "store", dueOn: "2026-12-09", overdue: true },
      }}
      store
    />,
  );
  expect(screen.getByTestId("claim-deadline").textContent).toBe(
    "Overdue. Waiting for you: decision due by 9 Dec 2026",
  );
  rerender(<ClaimDeadlineNote claim={{ status: "rejected", deadline: null }} store />);
  expect(screen.queryByTestId("claim-deadline")).toBeNull();
});
