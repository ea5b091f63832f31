import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { press, typeInto } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { ClaimForm } from "./claim-form";

undoStubsAfterEach();

const ORDER = "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11";
const line = {
  line: 2,
  productName: "In-Tank Electric Fuel Pump",
  partNumber: "PW-FU-9110",
  shipped: 4,
  claimable: 3,
  warrantyMonths: 24,
  endsOn: "2028-12-04",
  reason: null,
  shippedOn: "2026-12-04",
};
const submit = () => press("File the claim");

test("the claim form says the contract's words beside each field and sends nothing until they hold", async () => {
  const sent = renderWithApi(<ClaimForm orderId={ORDER} line={line} onClose={() => {}} />, () =>
    json({}),
  );
  submit();
  for (const message of [
    "Enter how many failed",
    "Enter the vehicle's VIN",
    "Enter the mileage at installation in whole kilometres or miles",
    "Enter the installation date as a date",
    "Choose who fitted the part",
    "Describe what happened in at least 10 characters",
  ]) {
    expect(await screen.findByText(message)).toBeTruthy();
  }
  expect(sent).toEqual([]);
});

test("a claim that holds is sent as the API takes it, and the customer is told its number", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const closed = vi.fn();
  const sent = renderWithApi(<ClaimForm orderId={ORDER} line={line} onClose={closed} />, () =>
    json({ number: "WC-10042" }, 201),
  );
  typeInto("How many failed", "2");
  typeInto("Vehicle identification number (VIN)", "1HGCM82633A004352");
  typeInto("Mileage at installation", "41000");
  typeInto("Mileage at failure", "43500");
  typeInto("Installation date", "2026-12-01");
  typeInto("Failure date", "2026-12-03");
  fireEvent.change(screen.getByLabelText("Who fitted the part"), { target: { value: "self" } });
  typeInto("What happened", "The pump stopped priming after two weeks.");
  typeInto("Mileage at failure", "40000");
  submit();
  expect(
    await screen.findByText("The mileage at failure cannot be less than at installation"),
  ).toBeTruthy();
  expect(sent).toEqual([]);
  typeInto("Mileage at failure", "43500");
  submit();
  await waitFor(() => expect(closed).toHaveBeenCalled());
  expect(sent).toEqual([
    {
      method: "POST",
      url: "/api/warranty-claims",
      body: {
        orderId: ORDER,
        line: 2,
        qty: 2,
        vin: "1HGCM82633A004352",
        mileageAtInstall: 41000,
        mileageAtFailure: 43500,
        installedOn: "2026-12-01",
        failedOn: "2026-12-03",
        installedBy: "self",
        description: "The pump stopped priming after two weeks.",
      },
    },
  ]);
  expect(success).toHaveBeenCalledWith("Warranty claim WC-10042 filed: we email you our answer");
});
