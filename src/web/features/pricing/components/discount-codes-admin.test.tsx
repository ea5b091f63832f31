import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { discountCodeMessages, type DiscountCode } from "#contract/discount-codes";
import { notify } from "../../../lib/notify";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { DiscountCodesAdmin } from "./discount-codes-admin";

undoStubsAfterEach();

const saved: DiscountCode = {
  id: "0b7a4c8e-2222-4d6a-9a55-0c6a4f1e2b11",
  code: "SPRING10",
  kind: "amount",
  percent: null,
  amount: 5,
  scope: "category",
  category: "Filters",
  productId: null,
  partNumber: null,
  minSubtotal: 50,
  startsOn: null,
  endsOn: "2027-05-31",
  usageLimit: 100,
  perCustomerLimit: null,
  customerGroupId: null,
  customerGroupName: null,
  active: true,
  used: 3,
  words: "$5.00 off filters",
};

const GARAGE = "5f0c1e2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f";
const groups = [
  { id: "1d5e8c3a-0000-4000-8000-000000000001", name: "Retail" },
  { id: GARAGE, name: "Garage" },
].map((g, i) => ({
  ...g,
  tradeMinimums: i > 0,
  retail: i === 0,
  companyCount: 0,
  customerCount: 0,
  ruleCount: 0,
}));

test("a new code: checked before it is sent (the code, the amount), then sent as the API takes it; the list says what each takes off and its uses", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<DiscountCodesAdmin />, (method, url) => {
    if (url.startsWith("/api/config")) return json({ currency: "USD" });
    if (url.startsWith("/api/customer-groups")) return json(groups);
    if (method === "GET") return json([saved]);
    return json(saved, 201);
  });
  const row = await screen.findByTestId("discount-code-row");
  expect(row.textContent).toContain("$5.00 off filters");
  expect(row.textContent).toContain("3 of 100");
  expect(row.textContent).toContain("Until 31 May 2027");

  const form = within(screen.getByRole("form", { name: "New discount code" }));
  const box = (label: string) => form.getByLabelText(label) as HTMLInputElement;
  fireEvent.change(box("Kind"), { target: { value: "amount" } });
  fireEvent.click(form.getByRole("button", { name: "Create code" }));
  await waitFor(() => expect(form.getByText(discountCodeMessages.code)).toBeTruthy());
  expect(form.getByText(discountCodeMessages.amount)).toBeTruthy();
  expect(sent).toEqual([]);

  fireEvent.change(box("Code"), { target: { value: "SPRING10" } });
  fireEvent.change(box("Amount off"), { target: { value: "5" } });
  fireEvent.change(box("For"), { target: { value: "category" } });
  fireEvent.change(box("Category"), { target: { value: "Filters" } });
  fireEvent.change(box("Minimum order"), { target: { value: "50" } });
  fireEvent.change(box("Until (optional)"), { target: { value: "2027-05-31" } });
  fireEvent.change(box("Uses in all (optional)"), { target: { value: "100" } });
  fireEvent.click(form.getByRole("button", { name: "Create code" }));
  await waitFor(() => expect(success).toHaveBeenCalledWith("Created SPRING10: $5.00 off filters"));
  expect(sent).toEqual([
    {
      method: "POST",
      url: "/api/discount-codes",
      body: {
        code: "SPRING10",
        kind: "amount",
        percent: 10,
        amount: 5,
        scope: "category",
        category: "Filters",
        partNumber: "",
        minSubtotal: 50,
        startsOn: null,
        endsOn: "2027-05-31",
        usageLimit: 100,
        perCustomerLimit: null,
        customerGroupId: null,
        active: true,
      },
    },
  ]);
});

test("the customer group: chosen on the form (every customer by default), shown in the list, kept by an edit", async () => {
  vi.spyOn(notify, "success").mockImplementation(() => {});
  const forGarage = {
    ...saved,
    id: "0b7a4c8e-3333-4d6a-9a55-0c6a4f1e2b12",
    customerGroupId: GARAGE,
    customerGroupName: "Garage",
  };
  const sent = renderWithApi(<DiscountCodesAdmin />, (method, url) => {
    if (url.startsWith("/api/config")) return json({ currency: "USD" });
    if (url.startsWith("/api/customer-groups")) return json(groups);
    if (method === "GET") return json([forGarage, saved]);
    return json(forGarage, method === "POST" ? 201 : 200);
  });
  const rows = await screen.findAllByTestId("discount-code-row");
  expect(rows[0]!.textContent).toContain("$5.00 off filtersFor Garage only");
  expect(rows[1]!.textContent).not.toContain("only");

  const form = within(screen.getByRole("form", { name: "New discount code" }));
  const group = form.getByLabelText("Customer group") as HTMLSelectElement;
  await waitFor(() => expect(within(group).getByRole("option", { name: "Garage" })).toBeTruthy());
  expect(group.value).toBe("");
  fireEvent.change(form.getByLabelText("Code"), { target: { value: "GARAGE5" } });
  fireEvent.change(group, { target: { value: GARAGE } });
  fireEvent.click(form.getByRole("button", { name: "Create code" }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({
    method: "POST",
    body: { code: "GARAGE5", customerGroupId: GARAGE },
  });

  // Edit opens the same form with the code's group chosen, and sends it back.
  fireEvent.click(within(rows[0]!).getByRole("button", { name: /Edit/ }));
  const dialog = within(await screen.findByRole("dialog"));
  const editGroup = dialog.getByLabelText("Customer group") as HTMLSelectElement;
  await waitFor(() => expect(editGroup.value).toBe(GARAGE));
  fireEvent.click(dialog.getByRole("button", { name: /Save/ }));
  await waitFor(() => expect(sent).toHaveLength(2));
  expect(sent[1]).toMatchObject({ method: "PATCH", body: { customerGroupId: GARAGE } });
});
