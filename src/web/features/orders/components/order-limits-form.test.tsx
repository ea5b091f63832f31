import { screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { orderLimitMessages, type OrderLimits } from "#contract/order-limits";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto, valueOf } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { OrderLimitsForm } from "./order-limits-form";

undoStubsAfterEach();

const HOURS = "Unpaid orders hold their stock for (hours)";
const NEW_MINUTES = "A new customer's unpaid order holds it for (minutes)";
const SHARE = "One order line may hold (% of the part's stock on sale)";
const VALUE = "One account's unpaid orders may hold (value in USD)";
const PER_MINUTE = "Orders one account may place a minute";

const IN_FORCE: OrderLimits = {
  holdHours: 48,
  newCustomerHoldMinutes: 30,
  holdWarningHours: 12,
  maxSharePercent: 50,
  freeUnits: 10,
  newCustomerSharePercent: 20,
  maxHeldValue: 25_000,
  ordersPerMinute: 10,
  quickOrderPerMinute: 60,
  updatedAt: null,
};

const renderForm = (current: OrderLimits, answer: (body: Record<string, number>) => Response) =>
  renderWithApi(<OrderLimitsForm />, (method, url, body) =>
    method === "PUT"
      ? answer(body as Record<string, number>)
      : url.endsWith("/config")
        ? Response.json({ currency: "USD" })
        : Response.json(current),
  );

test("shows the limits in force, says when they are the defaults, and saves new ones", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderForm(IN_FORCE, (body) =>
    Response.json({ ...body, updatedAt: "2026-12-06T10:00:00.000Z" }),
  );
  await screen.findByLabelText(HOURS);
  expect(valueOf(HOURS)).toBe("48");
  expect(valueOf(SHARE)).toBe("50");
  expect(await screen.findByLabelText(VALUE)).toBeTruthy();
  expect(valueOf(VALUE)).toBe("25000");
  expect(screen.getByText(orderLimitMessages.defaultsInForce, { exact: false })).toBeTruthy();

  typeInto(HOURS, "24");
  typeInto(NEW_MINUTES, "15");
  typeInto(VALUE, "12500.50");
  press("Save limits");
  await waitFor(() => expect(success).toHaveBeenCalled());
  expect(sent.filter((s) => s.method === "PUT")).toEqual([
    {
      url: "/api/holds/limits",
      method: "PUT",
      body: {
        ...IN_FORCE,
        updatedAt: undefined,
        holdHours: 24,
        newCustomerHoldMinutes: 15,
        maxHeldValue: 12500.5,
      },
    },
  ]);
  expect(success).toHaveBeenCalledWith(
    "Order limits saved: unpaid orders hold stock 24 hours (a new customer's 15 minutes)",
  );
  await waitFor(() =>
    expect(screen.queryByText(orderLimitMessages.defaultsInForce, { exact: false })).toBeNull(),
  );
});

test("a limit out of range is refused beside its field, nothing sent", async () => {
  const sent = renderForm({ ...IN_FORCE, updatedAt: "2026-12-06T10:00:00.000Z" }, () =>
    Response.json({}),
  );
  await screen.findByLabelText(HOURS);
  typeInto(HOURS, "0");
  typeInto(SHARE, "101");
  typeInto(PER_MINUTE, "2.5");
  press("Save limits");
  await waitFor(() => expect(errorOf(HOURS)).toBe(orderLimitMessages.holdHours));
  expect(errorOf(SHARE)).toBe(orderLimitMessages.maxSharePercent);
  expect(errorOf(PER_MINUTE)).toBe(orderLimitMessages.ordersPerMinute);
  expect(orderLimitMessages.maxSharePercent).toBe(
    "One line's share of the stock is a whole percent from 1 to 100",
  );
  expect(sent.filter((s) => s.method === "PUT")).toEqual([]);
});
