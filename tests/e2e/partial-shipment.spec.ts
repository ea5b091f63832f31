import type { Page } from "@playwright/test";
import {
  demoAdmin,
  productNamed,
  saveAddressThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

/** As the signed-in customer of `page`: a paid two-line order (cart checkout, test card). */
async function paidTwoLineOrder(page: Page) {
  const first = await productNamed(page, "headlight");
  const second = await productNamed(page, "fuel");
  for (const p of [first, second]) {
    const put = await page.request.put(`/api/cart/items/${p._id}`, {
      data: { qty: p.minimumOrder },
    });
    expect(put.ok(), await put.text()).toBe(true);
  }
  // Checked out to a saved address at the total the cart's quote shows for it.
  const addressId = await saveAddressThroughApi(page);
  const quote = await page.request.post("/api/cart/quote", { data: { addressId } });
  const cart = (await quote.json()) as { total: number };
  const placed = await page.request.post("/api/checkout", {
    data: { addressId, expectedTotal: cart.total },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderId = ((await placed.json()) as { order: { _id: string } }).order._id;
  const { clientSecret } = await (
    await page.request.post("/api/create-payment-intent", { data: { orderId } })
  ).json();
  const { transactionId } = await (
    await page.request.post("/api/payments/test-card/confirm", {
      data: { clientSecret, number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
    })
  ).json();
  const paid = await page.request.patch(`/api/orders/${orderId}`, { data: { transactionId } });
  expect(paid.ok(), await paid.text()).toBe(true);
  return { orderId, first, second };
}

test("an admin ships one line of a two-line paid order, then the rest; the customer sees the parcel and what is still to ship", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two sign-ins, a checkout and two browsers: on a loaded 2-core machine it ran out of the
  // default 60 s with every step passing, only slowly (the sign-up alone took 13 s).
  test.slow();
  await signUpThroughApi(page);
  const { orderId, first, second } = await paidTwoLineOrder(page);

  // The admin ships the first line with UPS from the order page.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  await admin.goto(`/dashboard/orders/${orderId}`);
  const form = admin.getByRole("form", { name: "Ship selected" });
  await form.getByLabel(first.name).fill(String(first.minimumOrder));
  await form.getByLabel("Carrier").selectOption({ label: "UPS" });
  await form.getByLabel("Tracking number").fill("1z 999aa1 0123456784");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toHaveCount(1);
  await expect(admin.getByTestId("partially-shipped")).toHaveText("Partially shipped");

  // The customer sees one parcel with its tracking link, and the line still to ship.
  await page.goto(`/dashboard/orders/${orderId}`);
  const parcels = page.getByTestId("shipment");
  await expect(parcels).toHaveCount(1);
  await expect(parcels).toContainText(`${first.minimumOrder} × ${first.name}`);
  await expect(parcels.getByRole("link", { name: /1Z999AA10123456784/ })).toHaveAttribute(
    "href",
    "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  );
  const toShip = page.getByTestId("still-to-ship");
  await expect(toShip.getByRole("listitem")).toHaveCount(1);
  await expect(toShip).toContainText(`${second.minimumOrder} × ${second.name}`);
  await expect(page.getByRole("form", { name: "Ship selected" })).toHaveCount(0);
  // My Items marks the order as partly shipped.
  await page.goto("/dashboard/myitems");
  await expect(
    page.getByRole("row").filter({ hasText: first.name }).getByText("Partially shipped"),
  ).toBeVisible();
  await page.goto(`/dashboard/orders/${orderId}`);

  // The admin ships the rest: the order is shipped.
  await form.getByLabel(second.name).fill(String(second.minimumOrder));
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toHaveCount(2);
  await expect(admin.getByRole("form", { name: "Ship selected" })).toHaveCount(0);
  await adminContext.close();

  await page.reload();
  await expect(page.getByTestId("shipment")).toHaveCount(2);
  await expect(page.getByTestId("still-to-ship")).toHaveCount(0);
  await expect(page.getByText("Shipped", { exact: true })).toBeVisible();
});
