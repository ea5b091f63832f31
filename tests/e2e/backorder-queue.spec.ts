import type { Page } from "@playwright/test";
import {
  demoAdmin,
  saveAddressThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// The admin's backorder queue (docs/inventory.md "The backorder queue"): a buyer orders 5 of a
// part with 2 on the shelf and chooses to ship what is there; the 3 others wait for a production
// run expected on 12 January 2027. The admin finds the line in Dashboard → Backorders (on a phone
// and a desktop) with its date, and the Today page counts it; once the run is received the line
// leaves the queue. The part is made for the test: other tests share the demo catalogue's stock.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

async function ok<T>(res: Awaited<ReturnType<Page["request"]["post"]>>, status = 201): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

test("an order on backorder is in the admin's queue with its date, and leaves it once the supply is received", async ({
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
        name: `Brake caliper ${id}`,
        partNumber: `PW-BQ-${id}`,
        category: "Other",
        price: 60,
        minimumOrder: 1,
        availableQuantity: 2,
        warranty: 12,
        shortDescription: "Made for the backorder queue test",
        img: "/images/products/timing-belt-kit.svg",
      },
    }),
  );
  await ok(
    await admin.request.put(`/api/locations/stock/${product._id}/backorders`, {
      data: { takes: true, leadDays: null },
    }),
    200,
  );
  const locations = await ok<{ id: string; isHome: boolean }[]>(
    await admin.request.get("/api/locations"),
    200,
  );
  const run = await ok<{ id: string }>(
    await admin.request.post("/api/incoming-supply", {
      data: {
        kind: "production",
        reference: `RUN-BQ-${id}`,
        productId: product._id,
        locationId: locations.find((l) => l.isHome)!.id,
        qty: 10,
        expectedOn: "2027-01-12",
      },
    }),
  );

  // The buyer orders 5 and ships what is there: 3 wait.
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 5 } }), 200);
  await page.goto("/checkout");
  await expect(page.getByTestId("line-backorder")).toHaveText(
    "2 in stock now; 3 on backorder, expected 12 Jan 2027",
  );
  await page.getByRole("button", { name: "Place order" }).click();
  await page.waitForURL(/\/dashboard\/orders\/[0-9a-f-]{36}$/);
  const orderId = page.url().split("/").pop()!;
  const { number } = await ok<{ number: string }>(
    await page.request.get(`/api/orders/${orderId}`),
    200,
  );

  // The Today page counts units on backorder and links the queue.
  await admin.setViewportSize(DESKTOP);
  await admin.goto("/dashboard");
  const tile = admin.getByRole("region", { name: /Units? on backorder/ });
  await expect(tile).toBeVisible();
  await tile.getByRole("link").click();
  await admin.waitForURL(/\/dashboard\/backorders$/);
  await expect(admin.getByRole("heading", { name: "Backorders", level: 1 })).toBeVisible();

  // The admin finds the order's line, on a desktop and on a phone.
  await admin.getByLabel("Search backorders").fill(number);
  await admin.getByRole("button", { name: "Search" }).click();
  const row = admin.getByTestId("backorder");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("link", { name: number })).toBeVisible();
  await expect(row.getByText(`PW-BQ-${id}`)).toBeVisible();
  await expect(row.getByTestId("backorder-waiting")).toHaveText("3");
  await expect(row.getByTestId("backorder-promised")).toHaveText("12 Jan 2027");
  await expect(row.getByTestId("backorder-ships")).toHaveText("Ships what is there");
  await screenshot(admin, "backorder-queue-desktop");
  await admin.setViewportSize(PHONE);
  await expect(row.getByTestId("backorder-promised")).toBeVisible();
  const width = await admin.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await screenshot(admin, "backorder-queue-phone");

  // The part's stock page links its own queue.
  await admin.goto(`/dashboard/locations/stock/${product._id}`);
  await admin.getByRole("link", { name: "See the orders waiting in the backorder queue" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `Only PW-BQ-${id}` })).toBeVisible();
  await expect(admin.getByTestId("backorder")).toHaveCount(1);
  await admin.getByLabel("Search backorders").fill(number);
  await admin.getByRole("button", { name: "Search" }).click();

  // The run arrives: the 3 go to the order, and the line leaves the queue.
  await ok(
    await admin.request.post(`/api/incoming-supply/${run.id}/receive`, { data: { qty: 10 } }),
    200,
  );
  await admin.reload();
  await expect(admin.getByText(`No backorder matches “${number}”.`)).toBeVisible();
  await expect(admin.getByTestId("backorder")).toHaveCount(0);
  await adminContext.close();
});
