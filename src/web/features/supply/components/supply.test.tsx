import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import type { IncomingSupply } from "#contract/supply";
import { supplyMessages } from "#contract/supply";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { SupplyPage } from "./supply-page";
import { SupplyImportForm } from "./supply-import";

undoStubsAfterEach();

const SUPPLY = "0b7a4c8e-4444-4d6a-9a55-0c6a4f1e2b11";
const run: IncomingSupply = {
  id: SUPPLY,
  kind: "production",
  reference: "RUN-14",
  productId: "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11",
  productName: "Brake caliper",
  partNumber: "PW-BC-1",
  locationId: "5d0f0a4e-2222-4d6a-9a55-0c6a4f1e2b11",
  locationCode: "MAIN",
  locationName: "Main warehouse",
  locationActive: true,
  qty: 40,
  received: 25,
  toCome: 15,
  expectedOn: "2027-01-12",
  status: "open",
  note: "",
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
};

test("the list asks for open supply first and shows what arrived and when the rest is expected", async () => {
  const urls: string[] = [];
  renderWithApi(<SupplyPage />, (_method, url) => {
    urls.push(url);
    return json([run]);
  });
  const [row] = await screen.findAllByTestId("supply");
  expect(within(row!).getByTestId("supply-received").textContent).toBe("25 of 40 received");
  expect(within(row!).getByTestId("supply-expected").textContent).toBe("12 Jan 2027");
  expect(urls[0]).toContain("status=open");
  fireEvent.change(screen.getByLabelText("Status"), { target: { value: "received" } });
  await waitFor(() => expect(urls.some((u) => u.includes("status=received"))).toBe(true));
});

test("Receive is prefilled with what is still to come, and sends the units as a number", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<SupplyPage />, (method) =>
    method === "GET" ? json([run]) : json({ ...run, received: 40, toCome: 0, status: "received" }),
  );
  fireEvent.click(await screen.findByRole("button", { name: "Receive RUN-14" }));
  const form = screen.getByRole("form", { name: "Receive RUN-14" });
  expect(within(form).getByLabelText("Units arrived")).toHaveProperty("value", "15");
  fireEvent.change(within(form).getByLabelText("Units arrived"), { target: { value: "0" } });
  fireEvent.click(within(form).getByRole("button", { name: "Receive" }));
  expect(await within(form).findByText(supplyMessages.qtyPositive)).toBeTruthy();
  expect(sent).toEqual([]);
  fireEvent.change(within(form).getByLabelText("Units arrived"), { target: { value: "15" } });
  fireEvent.click(within(form).getByRole("button", { name: "Receive" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "POST",
    url: `/api/incoming-supply/${SUPPLY}/receive`,
    body: { qty: 15 },
  });
});

test("Change date sends the new date, and the server's refusal is said in the dialog", async () => {
  const sent = renderWithApi(<SupplyPage />, (method) =>
    method === "GET"
      ? json([run])
      : json({ error: "rule_broken", message: supplyMessages.belowReceived(25) }, 422),
  );
  fireEvent.click(await screen.findByRole("button", { name: "Change date of RUN-14" }));
  const form = screen.getByRole("form", { name: "Change RUN-14" });
  fireEvent.change(within(form).getByLabelText("Expected on"), {
    target: { value: "2027-02-03" },
  });
  fireEvent.change(within(form).getByLabelText("Quantity"), { target: { value: "20" } });
  fireEvent.click(within(form).getByRole("button", { name: "Save" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "PATCH",
    url: `/api/incoming-supply/${SUPPLY}`,
    body: { expectedOn: "2027-02-03", qty: 20, reference: "RUN-14", note: "" },
  });
  expect(await within(form).findByText(supplyMessages.belowReceived(25))).toBeTruthy();
});

test("Add supply asks for the part and the location, then sends the contract's body", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<SupplyPage />, (method, url) => {
    if (method !== "GET") return json(run, 201);
    if (url.startsWith("/api/locations")) {
      return json([{ id: run.locationId, code: "MAIN", name: "Main warehouse", active: true }]);
    }
    if (url.startsWith("/api/products")) {
      return json([{ _id: run.productId, partNumber: "PW-BC-1", name: "Brake caliper" }]);
    }
    return json([]);
  });
  fireEvent.click(await screen.findByRole("button", { name: "Add supply" }));
  const form = screen.getByRole("form", { name: "Add supply" });
  fireEvent.change(within(form).getByLabelText("Run or PO number"), {
    target: { value: "PO-77" },
  });
  fireEvent.change(within(form).getByLabelText("Quantity"), { target: { value: "40" } });
  fireEvent.change(within(form).getByLabelText("Expected on"), {
    target: { value: "2027-01-12" },
  });
  fireEvent.click(within(form).getByRole("button", { name: "Add supply" }));
  expect(await within(form).findByText(supplyMessages.choosePart)).toBeTruthy();
  expect(within(form).getByText(supplyMessages.chooseLocation)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(within(form).getByLabelText("Kind"), { target: { value: "purchase_order" } });
  fireEvent.change(within(form).getByLabelText("Part"), { target: { value: "PW-BC" } });
  fireEvent.click(await within(form).findByRole("button", { name: /PW-BC-1/ }));
  await within(form).findByRole("option", { name: "MAIN · Main warehouse" });
  fireEvent.change(within(form).getByLabelText("Arrives at"), {
    target: { value: run.locationId },
  });
  fireEvent.click(within(form).getByRole("button", { name: "Add supply" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "POST",
    url: "/api/incoming-supply",
    body: {
      kind: "purchase_order",
      reference: "PO-77",
      productId: run.productId,
      locationId: run.locationId,
      qty: 40,
      expectedOn: "2027-01-12",
      note: "",
    },
  });
});

test("a supply CSV with problems enters nothing and lists each with its line; one that applies is said", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  let answer = {
    applied: false,
    rows: 1,
    errors: [{ line: 2, column: "location_code", message: "No location has the code XYZ" }],
  };
  const sent = renderWithApi(<SupplyImportForm />, () => json(answer));
  const file = new File(["kind,reference\n"], "supply.csv", { type: "text/csv" });
  fireEvent.change(screen.getByLabelText("CSV file"), { target: { files: [file] } });
  fireEvent.click(screen.getByRole("button", { name: "Import" }));
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("Nothing was entered: the file has a problem.");
  expect(alert.textContent).toContain("Line 2 (location_code): No location has the code XYZ");
  expect((sent[0]!.body as FormData).get("file")).toBe(file);
  answer = { applied: true, rows: 3, errors: [] };
  fireEvent.click(screen.getByRole("button", { name: "Import" }));
  await waitFor(() => expect(success).toHaveBeenCalledWith("3 supply lines added"));
  expect(screen.queryByRole("alert")).toBeNull();
});
