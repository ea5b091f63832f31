import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { backorderMessages, type BackorderCancelled } from "#contract/backorders";
import type { OrderShipments as Data } from "#contract/shipments";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { OrderShipments } from "./order-shipments";

undoStubsAfterEach();

const ORDER = "0b7a4c8e-3333-4d6a-9a55-0c6a4f1e2b11";
const booster = {
  line: 2,
  productName: "Brake booster",
  partNumber: "PW-BB-2",
  ordered: 5,
  shipped: 0,
  toShip: 0,
  backorder: { qty: 5, waiting: 5, cancelled: 0, promisedOn: "2027-01-12" },
  waitingAt: [],
};
const pads = {
  line: 1,
  productName: "Brake pads",
  partNumber: "PW-BR-1",
  ordered: 2,
  shipped: 0,
  toShip: 2,
  backorder: null,
  waitingAt: [],
};
const order = (lines: Data["lines"], status: Data["status"] = "paid"): Data => ({
  orderId: ORDER,
  status,
  partiallyShipped: false,
  shipComplete: false,
  shipments: [],
  lines,
});
const cancelled: BackorderCancelled = {
  line: 2,
  units: 5,
  refunded: 412.5,
  currency: "usd",
  refundStatus: "succeeded",
  orderCancelled: false,
  orderShipped: false,
};

test("a paid order's waiting units are cancelled after the dialog says what happens, and the refund is told", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<OrderShipments data={order([pads, booster])} isAdmin={false} />, () =>
    json(cancelled),
  );
  const block = screen.getByTestId("on-backorder");
  expect(block.textContent).toContain("Brake booster: 5 on backorder · expected 12 Jan 2027");
  fireEvent.click(within(block).getByRole("button", { name: /Cancel the 5 on backorder/ }));
  const dialog = await screen.findByRole("dialog");
  expect(dialog.textContent).toContain(backorderMessages.cancelBody(5, "Brake booster"));
  // The pads still ship: the order is not cancelled whole.
  expect(dialog.textContent).not.toContain(backorderMessages.cancelLast);
  fireEvent.click(within(dialog).getByRole("button", { name: "Cancel them" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({ method: "DELETE", url: `/api/orders/${ORDER}/backorders/2` });
  await waitFor(() =>
    expect(success).toHaveBeenCalledWith(backorderMessages.cancelled(5, "$412.50")),
  );
});

test("when nothing else would ship, the dialog says the whole order goes", async () => {
  renderWithApi(<OrderShipments data={order([booster])} isAdmin />, () => json(cancelled));
  fireEvent.click(screen.getByRole("button", { name: /Cancel the 5 on backorder/ }));
  expect((await screen.findByRole("dialog")).textContent).toContain(backorderMessages.cancelLast);
});

test("a shipped order lists no cancel button", () => {
  renderWithApi(<OrderShipments data={order([booster], "shipped")} isAdmin />, () =>
    json(cancelled),
  );
  expect(screen.queryByRole("button", { name: /Cancel the/ })).toBeNull();
});

test("units cancelled from backorder stay listed on the order, refunded", () => {
  const gone = { ...booster, backorder: { ...booster.backorder, waiting: 0, cancelled: 5 } };
  renderWithApi(<OrderShipments data={order([pads, gone])} isAdmin={false} />, () =>
    json(cancelled),
  );
  expect(screen.getByTestId("backorder-cancelled").textContent).toContain(
    backorderMessages.cancelledLine(5, "Brake booster"),
  );
  expect(screen.queryByTestId("on-backorder")).toBeNull();
});
