import type { Page } from "@playwright/test";
import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// Stock by location, the order's side (docs/inventory.md "Allocation", "Shipping from a
// location"): a part with 4 units in a Vermont warehouse and the rest at the Main warehouse; a
// driver in Vermont orders 6: 4 are allocated in Vermont, 2 at home. The admin ships the 4 from
// Vermont, then the 2 from the Main warehouse; each parcel says where it came from, to both. The
// part and the location are made for the test: other tests share the demo catalogue's stock.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };
const VERMONT = {
  name: "Vera Mont",
  line1: "5 Church Street",
  city: "Burlington",
  region: "VT",
  postalCode: "05401",
  country: "US",
  phone: "8025550100",
};

/** The answer's body, once its status is as expected (the body is said when not). */
async function ok<T>(res: Awaited<ReturnType<Page["request"]["post"]>>, status = 201): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

test("an order to Vermont is served from the Vermont warehouse first and the rest from home; each parcel says where it came from", async ({
  page,
  browser,
  baseURL,
}) => {
  const id = `${Date.now() % 100000}${process.pid % 100}`;
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const { product } = await ok<{ product: { _id: string; name: string } }>(
    await admin.request.post("/api/products", {
      data: {
        name: `Wheel hub ${id}`,
        partNumber: `PW-BTV-${id}`,
        category: "Other",
        price: 60,
        minimumOrder: 1,
        availableQuantity: 10,
        warranty: 12,
        shortDescription: "Made for the ship-from-location test",
        img: "/images/products/timing-belt-kit.svg",
      },
    }),
  );
  const location = await ok<{ id: string }>(
    await admin.request.post("/api/locations", {
      data: {
        code: `BTV${id}`.slice(0, 12),
        name: "Burlington warehouse",
        city: "Burlington",
        region: "VT",
        country: "US",
        servesCountries: ["US"],
        servesRegions: ["VT"],
      },
    }),
  );
  // 4 counted in Burlington: the part's total is now 14.
  await ok(
    await admin.request.put(`/api/locations/${location.id}/stock/${product._id}`, {
      data: { onHand: 4, reorderLevel: null },
    }),
    200,
  );

  // A driver in Vermont checks out 6 and pays by card.
  await signUpThroughApi(page);
  const { id: addressId } = await ok<{ id: string }>(
    await page.request.post("/api/user/addresses", { data: VERMONT }),
  );
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 6 } }), 200);
  const quote = await ok<{ total: number }>(
    await page.request.post("/api/cart/quote", { data: { addressId } }),
    200,
  );
  const { order } = await ok<{ order: { _id: string } }>(
    await page.request.post("/api/checkout", { data: { addressId, expectedTotal: quote.total } }),
  );
  const { clientSecret } = await ok<{ clientSecret: string }>(
    await page.request.post("/api/create-payment-intent", { data: { orderId: order._id } }),
    200,
  );
  const { transactionId } = await ok<{ transactionId: string }>(
    await page.request.post("/api/payments/test-card/confirm", {
      data: { clientSecret, number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
    }),
    200,
  );
  await ok(await page.request.patch(`/api/orders/${order._id}`, { data: { transactionId } }), 200);

  // The admin's order page: the units wait at two places; ship Burlington's first.
  await admin.setViewportSize(DESKTOP);
  await admin.goto(`/dashboard/orders/${order._id}`);
  const form = admin.getByRole("form", { name: "Ship selected" });
  await expect(form.getByText("2 at Main warehouse · 4 at Burlington warehouse")).toBeVisible();
  await form.getByLabel("Ships from").selectOption({ label: "Burlington warehouse" });
  await form.getByLabel(product.name).fill("6");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(form.getByText("Line 1: only 4 wait at Burlington warehouse")).toBeVisible();
  await form.getByLabel(product.name).fill("4");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toHaveCount(1);
  await expect(admin.getByTestId("shipment")).toContainText("From Burlington warehouse");
  await screenshot(admin, "ship-from-admin-desktop");

  // The rest waits at home only: nothing to choose.
  await expect(form.getByLabel("Ships from")).toHaveCount(0);
  await form.getByLabel(product.name).fill("2");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toHaveCount(2);
  await expect(admin.getByTestId("shipment").nth(1)).toContainText("From Main warehouse");
  await adminContext.close();

  // The driver sees both parcels and where each came from.
  await page.setViewportSize(PHONE);
  await page.goto(`/dashboard/orders/${order._id}`);
  const parcels = page.getByTestId("shipment");
  await expect(parcels).toHaveCount(2);
  await expect(parcels.nth(0)).toContainText("4 × " + product.name);
  await expect(parcels.nth(0)).toContainText("From Burlington warehouse");
  await expect(parcels.nth(1)).toContainText("From Main warehouse");
  await expect(page.getByText("Shipped", { exact: true })).toBeVisible();
  await screenshot(page, "ship-from-customer-phone");
});
