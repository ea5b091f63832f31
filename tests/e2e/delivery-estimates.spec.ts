import type { Page } from "@playwright/test";
import { deliveryEstimate } from "../../src/server/shipping/delivery";
import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";
import { screenshot } from "./screenshots";

// Delivery estimates from where the parts ship (docs/shipping.md "Delivery estimates"): the
// admin adds a Wyoming courier zone with its transit days on the Shipping Zones screen and sets a
// Cheyenne warehouse's dispatch days on the Locations page; a driver in Wyoming sees at checkout
// when the parts arrive and where they ship from, per origin when the order is split. Wyoming is
// this test's own: no other journey ships there.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };
const WYOMING = {
  name: "Wyatt Oming",
  line1: "1 Capitol Ave",
  city: "Cheyenne",
  region: "WY",
  postalCode: "82001",
  country: "US",
  phone: "3075550100",
};

async function ok<T>(res: Awaited<ReturnType<Page["request"]["post"]>>, status = 201): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

test("the admin's dispatch and transit days become the window the buyer sees at checkout", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const id = `${Date.now() % 100000}${process.pid % 100}`;
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const { product } = await ok<{ product: { _id: string; name: string } }>(
    await admin.request.post("/api/products", {
      data: {
        name: `Tie rod end ${id}`,
        partNumber: `PW-CYS-${id}`,
        category: "Steering",
        price: 40,
        minimumOrder: 1,
        availableQuantity: 10,
        warranty: 12,
        shortDescription: "Made for the delivery estimates test",
        img: "/images/products/timing-belt-kit.svg",
      },
    }),
  );
  const code = `CYS${id}`.slice(0, 12);
  const location = await ok<{ id: string }>(
    await admin.request.post("/api/locations", {
      data: {
        code,
        name: `Cheyenne warehouse ${id}`,
        city: "Cheyenne",
        region: "WY",
        country: "US",
        servesCountries: ["US"],
        servesRegions: ["WY"],
      },
    }),
  );
  await ok(
    await admin.request.put(`/api/locations/${location.id}/stock/${product._id}`, {
      data: { onHand: 4, reorderLevel: null },
    }),
    200,
  );

  // Shipping Zones: a Wyoming courier, 2 to 4 working days in transit.
  await admin.setViewportSize(DESKTOP);
  await admin.goto("/dashboard/shipping");
  await admin.getByRole("button", { name: "Add a shipping zone" }).click();
  const zoneForm = admin.getByRole("form", { name: "Add a shipping zone" });
  await zoneForm.getByLabel("Zone name").fill(`Wyoming ${id}`);
  await zoneForm.getByLabel("Country codes").fill("US");
  await zoneForm.getByLabel("Only these regions (optional)").fill("WY");
  await zoneForm.getByLabel("Name", { exact: true }).fill("Wyoming courier");
  await zoneForm.getByLabel("Price").fill("7.50");
  await zoneForm.getByLabel("Transit, least (working days)").fill("4");
  await zoneForm.getByLabel("Transit, most (working days)").fill("2");
  await zoneForm.getByRole("button", { name: "Save zone" }).click();
  await expect(
    zoneForm.getByText("The most days in transit cannot be fewer than the least"),
  ).toBeVisible();
  await zoneForm.getByLabel("Transit, least (working days)").fill("2");
  await zoneForm.getByLabel("Transit, most (working days)").fill("4");
  await screenshot(admin, "delivery-zone-form-desktop");
  await zoneForm.getByRole("button", { name: "Save zone" }).click();
  await expect(
    admin
      .getByTestId("shipping-zone")
      .filter({ hasText: `Wyoming ${id}` })
      .getByText("2–4 working days in transit", { exact: false }),
  ).toBeVisible();

  // Locations: Cheyenne dispatches in 2 working days.
  await admin.goto("/dashboard/locations");
  await admin.getByRole("button", { name: `Edit ${code}` }).click();
  const dialog = admin.getByRole("dialog", { name: `Edit ${code}` });
  await dialog.getByLabel("Dispatch (working days)").fill("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Enter the working days to dispatch, 0 to 60")).toBeVisible();
  await dialog.getByLabel("Dispatch (working days)").fill("2");
  await screenshot(admin, "delivery-location-form-desktop", { fullPage: false });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    admin.getByTestId("location").filter({ hasText: code }).getByText("2 working days"),
  ).toBeVisible();
  await admin.setViewportSize(PHONE);
  await screenshot(admin, "delivery-locations-phone");
  await adminContext.close();

  // A driver in Wyoming: 3 of the part ship from Cheyenne.
  const buyer = await signUpThroughApi(page);
  await ok(await page.request.post("/api/user/addresses", { data: WYOMING }));
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 3 } }), 200);
  const now = new Date();
  const transit = { transitMinDays: 2, transitMaxDays: 4 };
  const cheyenne = { name: `Cheyenne warehouse ${id}`, dispatchDays: 2, cutoffHour: null };
  const one = deliveryEstimate(now, [{ ...cheyenne, units: 3 }], [], transit)!;
  expect(one.words).toMatch(new RegExp(`^Arrives .+ · ships from Cheyenne warehouse ${id}$`));
  await page.setViewportSize(PHONE);
  await page.goto("/checkout");
  const courier = page.getByRole("radio", { name: /^Wyoming courier/ });
  await expect(courier).toBeChecked();
  await expect(page.getByTestId("delivery-window")).toHaveText(one.words);
  await screenshot(page, "delivery-checkout-phone");
  // The cart's estimate for a Wyoming postal code says the same.
  await page.goto("/cart");
  await page.getByLabel("Postal code").fill("82001");
  await page.getByRole("button", { name: "Estimate" }).click();
  await expect(page.getByTestId("delivery-estimate").getByTestId("delivery-window")).toHaveText(
    one.words,
  );
  await screenshot(page, "delivery-cart-phone");

  // Six: Cheyenne's 4, and 2 from the Main warehouse with its own dispatch (1 working day).
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 6 } }), 200);
  const split = deliveryEstimate(
    now,
    [
      { ...cheyenne, units: 4 },
      { name: "Main warehouse", dispatchDays: 1, cutoffHour: null, units: 2 },
    ],
    [],
    transit,
  )!;
  await page.setViewportSize(DESKTOP);
  await page.goto("/checkout");
  await expect(page.getByTestId("delivery-window")).toHaveText(split.words);
  expect(split.words).toContain(`from Cheyenne warehouse ${id} (4 units); `);
  await screenshot(page, "delivery-checkout-desktop");

  // Placed: the order's page says the window promised at checkout, from where the parts were
  // allocated (docs/shipping.md "The promise kept with the order"), and so does the email.
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  const placed = await ok<{ createdAt: string }>(
    await page.request.get(`/api/orders/${orderId}`),
    200,
  );
  const promised = deliveryEstimate(
    new Date(placed.createdAt),
    [
      { ...cheyenne, units: 4 },
      { name: "Main warehouse", dispatchDays: 1, cutoffHour: null, units: 2 },
    ],
    [],
    transit,
  )!;
  await expect(page.getByTestId("delivery-promise")).toHaveText(
    `Promised at checkout: a${promised.words.slice(1)}`,
  );
  await screenshot(page, "delivery-order-desktop");
  await page.setViewportSize(PHONE);
  await screenshot(page, "delivery-order-phone");
  await openMail(page, buyer.email, /is placed/);
  await expect(page.getByText(`Delivery: ${promised.words}.`)).toBeVisible();
});
