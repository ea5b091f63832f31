import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { vehicleAdminMessages, type VehicleNames } from "#contract/vehicles";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { errorOf, press, typeInto } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { AddMakeForm, AddYearsForm } from "./add-forms";

undoStubsAfterEach();

const names: VehicleNames = {
  makes: [
    {
      id: 1,
      name: "Tesla",
      vcdbMakeId: null,
      models: [
        { id: 11, name: "Model 3", makeId: 1, vcdbModelId: null },
        { id: 12, name: "Model Y", makeId: 1, vcdbModelId: null },
      ],
    },
    { id: 2, name: "Rivian", vcdbMakeId: null, models: [] },
  ],
  engines: [
    { id: 21, name: "Long Range AWD", liters: null, fuel: "Electric", vcdbEngineConfigId: null },
    { id: 22, name: "Standard RWD", liters: null, fuel: "Electric", vcdbEngineConfigId: null },
  ],
  submodels: [],
};

test("years of a model: checked by the contract's rules, then sent with the engines ticked", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<AddYearsForm names={names} />, () =>
    Response.json({ created: [{ year: 2019 }, { year: 2020 }], existing: [] }, { status: 201 }),
  );
  const submit = () => press("Add years");

  typeInto("From year", "2021");
  typeInto("To year", "2019");
  submit();
  await waitFor(() => expect(errorOf("To year")).toBe(vehicleAdminMessages.yearsOrder));
  expect(sent).toEqual([]);

  fireEvent.change(screen.getByLabelText("Model"), { target: { value: "12" } });
  typeInto("From year", "2019");
  typeInto("To year", "2020");
  fireEvent.click(screen.getByLabelText("Long Range AWD"));
  submit();
  await waitFor(() => expect(success).toHaveBeenCalledWith("2 years of the Model Y added"));
  expect(sent).toEqual([
    {
      url: "/api/vehicles/base-vehicles",
      method: "POST",
      body: { modelId: 12, yearFrom: 2019, yearTo: 2020, engineIds: [21] },
    },
  ]);
});

test("a make without models has none to add years to; choosing it says so", () => {
  renderWithApi(<AddYearsForm names={names} />, () => Response.json({}));
  fireEvent.change(screen.getByLabelText("Make"), { target: { value: "2" } });
  expect(screen.getByText("This make has no models yet.")).toBeTruthy();
  expect((screen.getByRole("button", { name: "Add years" }) as HTMLButtonElement).disabled).toBe(
    true,
  );
});

test("a make the store has already: the server's 409 is shown in the form", async () => {
  const sent = renderWithApi(<AddMakeForm />, () =>
    Response.json(
      { error: "conflict", message: vehicleAdminMessages.makeTaken("Tesla") },
      { status: 409 },
    ),
  );
  typeInto("Make", " tesla ");
  typeInto("VCdb make id (optional)", "0");
  press("Add make");
  await waitFor(() => expect(errorOf("VCdb make id (optional)")).toBe(vehicleAdminMessages.vcdbId));
  expect(sent).toEqual([]);

  typeInto("VCdb make id (optional)", "");
  press("Add make");
  expect(await screen.findByRole("alert")).toHaveProperty(
    "textContent",
    "There is already a make named Tesla",
  );
  expect(sent).toEqual([{ url: "/api/vehicles/makes", method: "POST", body: { name: "tesla" } }]);
});
