import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import {
  customerGroupMessages,
  GARAGE_GROUP_ID,
  RETAIL_GROUP_ID,
  type CustomerGroup,
  type PriceRule,
} from "#contract/customer-groups";
import { notify } from "../../../lib/notify";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { press } from "../../../../../tests/support/web-form";
import { CustomerGroupsAdmin } from "./customer-groups-admin";

undoStubsAfterEach();

const group = (id: string, name: string, retail = false): CustomerGroup => ({
  id,
  name,
  retail,
  tradeMinimums: !retail,
  companyCount: 0,
  customerCount: 0,
  ruleCount: retail ? 0 : 1,
});
const rule: PriceRule = {
  id: "0b7a4c8e-1111-4d6a-9a55-0c6a4f1e2b11",
  groupId: GARAGE_GROUP_ID,
  percent: 20,
  scope: "category",
  category: "Brakes",
  brand: null,
  productId: null,
  partNumber: null,
  startsOn: "2027-01-01",
  endsOn: null,
  words: "20 % off brakes",
};

test("editing a rule: the adding form, filled with the rule, in a dialog; checked before sending, then saved", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<CustomerGroupsAdmin />, (method, url, body) => {
    if (url === "/api/customer-groups")
      return json([group(RETAIL_GROUP_ID, "Retail", true), group(GARAGE_GROUP_ID, "Garage")]);
    if (method === "GET") return json([rule]);
    return json({ ...rule, ...(body as object), words: "25 % off Bosch" });
  });
  const edit = await screen.findByRole("button", { name: "Edit the rule 20 % off brakes" });
  expect(edit.closest("tr")?.textContent).toContain("1 Jan 2027");
  fireEvent.click(edit);
  const dialog = within(screen.getByRole("form", { name: "Edit the rule 20 % off brakes" }));
  const box = (label: string) => dialog.getByLabelText(label) as HTMLInputElement;
  expect(box("Percent off").value).toBe("20");
  expect(box("Category").value).toBe("Brakes");
  expect(box("From (optional)").value).toBe("2027-01-01");
  expect(box("Until (optional)").value).toBe("");

  fireEvent.change(box("Percent off"), { target: { value: "0" } });
  fireEvent.change(box("Applies to"), { target: { value: "brand" } });
  press("Save");
  await waitFor(() => expect(dialog.getByText(customerGroupMessages.percent)).toBeTruthy());
  expect(dialog.getByText(customerGroupMessages.brand)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(box("Percent off"), { target: { value: "25" } });
  fireEvent.change(box("Brand"), { target: { value: "Bosch" } });
  press("Save");
  await waitFor(() => expect(success).toHaveBeenCalledWith("Saved 25 % off Bosch"));
  expect(sent).toEqual([
    {
      method: "PATCH",
      url: `/api/customer-groups/${GARAGE_GROUP_ID}/rules/${rule.id}`,
      body: {
        percent: 25,
        scope: "brand",
        category: "Brakes",
        brand: "Bosch",
        partNumber: "",
        startsOn: "2027-01-01",
        endsOn: null,
      },
    },
  ]);
  await waitFor(() => expect(screen.queryByRole("form", { name: /Edit the rule/ })).toBeNull());
});
