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

test("a new code: checked before it is sent (the code, the amount), then sent as the API takes it; the list says what each takes off and its uses", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  const sent = renderWithApi(<DiscountCodesAdmin />, (method, url) => {
    if (url.startsWith("/api/config")) return json({ currency: "USD" });
    if (method === "GET") return json([saved]);
    return json(saved, 201);
  });
  const row = await screen.findByTestId("discount-code-row");
  expect(row.textContent).toContain("$5.00 off filters");
  expect(row.textContent).toContain("3 of 100");
  expect(row.textContent).toContain("… to 2027-05-31");

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
        active: true,
      },
    },
  ]);
});
