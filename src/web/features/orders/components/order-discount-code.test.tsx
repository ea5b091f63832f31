import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { expect, test, vi } from "vitest";
import type { OrderTotal } from "#contract/orders";
import { OrderTotalLines } from "../../../components/order-total-lines";
import { ApiError } from "../../../lib/api-client";
import { OrderDiscountCode } from "./order-discount-code";

/** The field as the order dialog holds it: the code applied once `check` settles. */
function Dialog({ check }: { check(code: string): Promise<unknown> }) {
  const [applied, setApplied] = useState<string>();
  return (
    <>
      <OrderDiscountCode
        applied={applied}
        check={check}
        onApply={setApplied}
        onRemove={() => setApplied(undefined)}
      />
      <output data-testid="applied">{applied ?? "none"}</output>
    </>
  );
}

const apply = (code: string) => {
  fireEvent.change(screen.getByLabelText("Discount code"), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: "Apply" }));
};

test("a refused code says why in the API's words and is not applied; an accepted one is named and can be removed", async () => {
  const check = vi
    .fn<(code: string) => Promise<unknown>>()
    .mockRejectedValueOnce(
      new ApiError(422, "rule_broken", "This code is unknown or has ended", {
        discountCode: "This code is unknown or has ended",
      }),
    )
    .mockResolvedValueOnce({});
  render(<Dialog check={check} />);
  apply("NOPE");
  expect(await screen.findByText("This code is unknown or has ended")).toBeTruthy();
  expect(screen.getByTestId("applied").textContent).toBe("none");

  apply("spring10");
  await waitFor(() => expect(screen.getByTestId("applied").textContent).toBe("spring10"));
  expect(check.mock.calls).toEqual([["NOPE"], ["spring10"]]);
  expect(screen.getByTestId("order-discount-applied").textContent).toContain(
    "Code spring10 applied",
  );
  fireEvent.click(screen.getByRole("button", { name: "Remove code" }));
  expect(screen.getByTestId("applied").textContent).toBe("none");
  expect(screen.getByLabelText("Discount code")).toBeTruthy();
});

test("an empty code is refused before anything is asked", async () => {
  const check = vi.fn<(code: string) => Promise<unknown>>();
  render(<Dialog check={check} />);
  apply("");
  expect(await screen.findByText("Enter a code")).toBeTruthy();
  expect(check).not.toHaveBeenCalled();
});

test("the dialog's totals show the code's line between the parts and shipping", () => {
  const total: OrderTotal = {
    subtotal: 30,
    coreDeposits: 0,
    shipping: 5,
    shippingMethod: "Standard",
    tax: 0,
    total: 32,
    discount: { code: "SPRING10", amount: 3 },
  };
  render(<OrderTotalLines total={total} currency="USD" partsLabel="Parts" testId="t" />);
  const lines = [...screen.getByTestId("t").querySelectorAll("dt")].map((d) => d.textContent);
  expect(lines).toEqual([
    "Parts",
    "Discount (SPRING10)",
    "Shipping (Standard)",
    "Tax",
    "Total to pay",
  ]);
  expect(screen.getByTestId("t-discount").textContent).toBe("−$3.00");
});
