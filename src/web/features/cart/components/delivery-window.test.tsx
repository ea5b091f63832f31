import { render, screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { ShippingOption } from "#contract/shipping";
import { DeliveryWindow } from "./delivery-window";

const option = (delivery: ShippingOption["delivery"]): ShippingOption => ({
  id: "00000000-0000-4000-8000-000000000001",
  name: "Standard",
  estimate: "3-5 business days",
  price: 5,
  delivery,
});

test("says when the parcels arrive and where from, and nothing without a window", () => {
  const words = "Arrives 9–11 Dec 2026 · ships from Chicago warehouse";
  const parcel = {
    from: "Chicago warehouse",
    units: 2,
    dispatchOn: "2026-12-07",
    earliest: "2026-12-09",
    latest: "2026-12-11",
  };
  const { rerender } = render(
    <DeliveryWindow option={option({ parcels: [parcel], undated: 0, words })} />,
  );
  expect(screen.getByTestId("delivery-window").textContent).toBe(words);
  rerender(<DeliveryWindow option={option(null)} />);
  expect(screen.queryByTestId("delivery-window")).toBeNull();
});
