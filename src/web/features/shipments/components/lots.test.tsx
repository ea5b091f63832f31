import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { LOT_MESSAGE, type OrderShipments as Data } from "#contract/shipments";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { LotImportForm } from "./lot-import";
import { OrderShipments } from "./order-shipments";

undoStubsAfterEach();

const ORDER = "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11";
const data: Data = {
  orderId: ORDER,
  status: "paid",
  partiallyShipped: true,
  shipComplete: false,
  shipments: [
    {
      id: "5d0f0a4e-2222-4d6a-9a55-0c6a4f1e2b11",
      orderId: ORDER,
      from: null,
      carrier: null,
      trackingNumber: null,
      trackingUrl: null,
      shippedAt: "2026-12-01T10:00:00.000Z",
      lines: [
        { line: 1, productName: "Brake pads", partNumber: "PW-BR-1", qty: 2, lot: "L2407-B" },
      ],
    },
  ],
  lines: [
    {
      line: 1,
      productName: "Brake pads",
      partNumber: "PW-BR-1",
      ordered: 2,
      shipped: 2,
      toShip: 0,
      backorder: null,
      waitingAt: [],
    },
    {
      line: 2,
      productName: "Water pump",
      partNumber: "PW-WP-2",
      ordered: 3,
      shipped: 0,
      toShip: 3,
      backorder: null,
      waitingAt: [],
    },
  ],
};

test("the ship dialog takes an optional lot per line, checked and trimmed as the API takes it; a parcel shows its lots", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<OrderShipments data={data} isAdmin />, () => json(data, 201));
  expect(screen.getByTestId("shipment").textContent).toContain("lot L2407-B");
  fireEvent.change(screen.getByLabelText(/Water pump/), { target: { value: "2" } });
  fireEvent.change(screen.getByLabelText("Lot, line 2"), { target: { value: "L 1" } });
  fireEvent.click(screen.getByRole("button", { name: "Ship selected" }));
  expect(await screen.findByText(LOT_MESSAGE)).toBeTruthy();
  expect(sent).toEqual([]);
  fireEvent.change(screen.getByLabelText("Lot, line 2"), { target: { value: " L-1/7 " } });
  fireEvent.click(screen.getByRole("button", { name: "Ship selected" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]!.body).toEqual({ lines: [{ line: 2, qty: 2, lot: "L-1/7" }] });
});

test("a lots CSV with problems lists each with its line; one that applies is said", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  let answer = {
    applied: false,
    rows: 2,
    errors: [{ line: 3, message: "PW-100235 has no line 1 shipped" }],
  };
  const sent = renderWithApi(<LotImportForm />, () => json(answer));
  const file = new File(["order,line,lot\n"], "lots.csv", { type: "text/csv" });
  fireEvent.change(screen.getByLabelText("CSV file"), { target: { files: [file] } });
  fireEvent.click(screen.getByRole("button", { name: "Set the lots" }));
  expect((await screen.findByRole("alert")).textContent).toContain(
    "Line 3: PW-100235 has no line 1 shipped",
  );
  expect(sent[0]!.url).toBe("/api/shipments/lots");
  expect((sent[0]!.body as FormData).get("file")).toBe(file);
  answer = { applied: true, rows: 2, errors: [] };
  fireEvent.click(screen.getByRole("button", { name: "Set the lots" }));
  await waitFor(() => expect(success).toHaveBeenCalledWith("Lots set on 2 shipped lines"));
  expect(screen.queryByRole("alert")).toBeNull();
});

test("units waiting at two locations: the admin chooses where the parcel ships from, and a parcel says where it came from", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const MAIN = "1a2b3c4d-0000-4d6a-9a55-0c6a4f1e2b11";
  const CHI = "1a2b3c4d-1111-4d6a-9a55-0c6a4f1e2b11";
  const split: Data = {
    ...data,
    shipments: [
      { ...data.shipments[0]!, from: { id: MAIN, code: "MAIN", name: "Main warehouse" } },
    ],
    lines: [
      data.lines[0]!,
      {
        ...data.lines[1]!,
        waitingAt: [
          { id: MAIN, code: "MAIN", name: "Main warehouse", qty: 1 },
          { id: CHI, code: "CHI", name: "Chicago warehouse", qty: 2 },
        ],
      },
    ],
  };
  const sent = renderWithApi(<OrderShipments data={split} isAdmin />, () => json(split, 201));
  expect(screen.getByTestId("shipment").textContent).toContain("From Main warehouse");
  expect(screen.getByText("1 at Main warehouse · 2 at Chicago warehouse")).toBeTruthy();
  fireEvent.change(screen.getByLabelText("Ships from"), { target: { value: CHI } });
  fireEvent.change(screen.getByLabelText(/Water pump/), { target: { value: "2" } });
  fireEvent.click(screen.getByRole("button", { name: "Ship selected" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]!.body).toEqual({ lines: [{ line: 2, qty: 2 }], locationId: CHI });
});
