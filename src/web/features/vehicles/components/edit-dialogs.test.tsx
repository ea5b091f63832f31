import { waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { press, typeInto } from "../../../../../tests/support/web-form";
import { notify } from "../../../lib/notify";
import { EditEngineDialog } from "./edit-dialogs";

undoStubsAfterEach();

test("an engine's edit dialog sends its change to the engine, says it is saved and closes", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const onClose = vi.fn();
  const engine = {
    id: 21,
    name: "Long Range AWD",
    liters: null,
    fuel: "Electric",
    vcdbEngineConfigId: null,
  };
  const sent = renderWithApi(<EditEngineDialog engine={engine} onClose={onClose} />, () =>
    Response.json({ ...engine, name: "Long Range Dual Motor" }),
  );
  typeInto("Engine", "Long Range Dual Motor");
  press("Save");
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(success).toHaveBeenCalledWith("Engine saved");
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    url: "/api/vehicles/engines/21",
    method: "PATCH",
    body: { name: "Long Range Dual Motor" },
  });
});
