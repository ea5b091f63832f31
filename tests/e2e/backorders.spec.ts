import type { Page } from "@playwright/test";
import {
  demoAdmin,
  payThroughApi,
  saveAddressThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";
import { screenshot } from "./screenshots";

// Backorders (docs/inventory.md "Backorders"): the admin lets a part with 3 on the shelf take
// backorders and enters a production run expected on 12 January 2027; a buyer puts 8 in the cart,
// sees 5 of them on backorder with the run's date, chooses "ship what is in stock now", pays and
// sees the date on the order. The admin ships the 3, receives the run, and the 5 ship. The part
// is made for the test: other tests share the demo catalogue's stock.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

/** The answer's body, once its status is as expected (the body is said when not). */
async function ok<T>(res: Awaited<ReturnType<Page["request"]["post"]>>, status = 201): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A part made for the test, with `stock` on the shelf (the demo catalogue's stock is shared). */
async function newPart(admin: Page, id: string, stock: number) {
  const { product } = await ok<{ product: { _id: string; name: string } }>(
    await admin.request.post("/api/products", {
      data: {
        name: `Brake booster ${id}`,
        partNumber: `PW-BO-${id}`,
        category: "Other",
        price: 80,
        minimumOrder: 1,
        availableQuantity: stock,
        warranty: 12,
        shortDescription: "Made for the backorders test",
        img: "/images/products/timing-belt-kit.svg",
      },
    }),
  );
  return product;
}

test("a buyer orders more than is on the shelf, ships what is there, sees the backordered units' date; they ship once the run arrives", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two people's pages, a run received and three parcels: more steps than most journeys.
  test.slow();
  const id = `${Date.now() % 100000}${process.pid % 100}`;
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const product = await newPart(admin, id, 3);

  // The part's stock page: it takes backorders up to its open supply.
  await admin.setViewportSize(DESKTOP);
  await admin.goto(`/dashboard/locations/stock/${product._id}`);
  const policy = admin.getByRole("form", { name: "Backorders" });
  await expect(admin.getByTestId("backorders-waiting")).toHaveText("No units wait on backorder.");
  await policy.getByLabel("Take orders beyond the stock on sale").check();
  await expect(policy.getByLabel("Lead time in days (optional)")).toHaveValue("");
  await policy.getByRole("button", { name: "Save backorders" }).click();
  await expect(admin.getByText(`PW-BO-${id} takes backorders`)).toBeVisible();

  // A production run of 20, expected on 12 January 2027, at the Main warehouse.
  const locations = await ok<{ id: string; isHome: boolean }[]>(
    await admin.request.get("/api/locations"),
    200,
  );
  const home = locations.find((l) => l.isHome)!;
  const run = await ok<{ id: string }>(
    await admin.request.post("/api/incoming-supply", {
      data: {
        kind: "production",
        reference: `RUN-BO-${id}`,
        productId: product._id,
        locationId: home.id,
        qty: 20,
        expectedOn: "2027-01-12",
      },
    }),
  );

  // The buyer's cart and checkout, on a phone.
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 8 } }), 200);
  await page.setViewportSize(PHONE);
  await page.goto("/cart");
  await expect(page.getByTestId("line-backorder")).toHaveText(
    "3 in stock now; 5 on backorder, expected 12 Jan 2027",
  );
  await page.goto("/checkout");
  const choice = page.getByRole("group", {
    name: "Some parts are on backorder. How should we ship your order?",
  });
  await expect(
    choice.getByLabel("Ship what is in stock now, the rest when it arrives"),
  ).toBeChecked();
  await expect(choice.getByLabel("Ship everything together when it has all arrived")).toBeVisible();
  await expect(page.getByTestId("line-backorder")).toHaveText(
    "3 in stock now; 5 on backorder, expected 12 Jan 2027",
  );
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "backorders-checkout-phone");
  await page.getByRole("button", { name: "Place order" }).click();
  await page.waitForURL(/\/dashboard\/orders\/[0-9a-f-]{36}$/);
  const orderId = page.url().split("/").pop()!;

  // Paid by card; the order page says what waits and until when.
  await payThroughApi(page, orderId);
  await page.reload();
  await expect(page.getByTestId("on-backorder")).toContainText(
    `${product.name}: 5 on backorder · expected 12 Jan 2027`,
  );
  await screenshot(page, "backorders-order-phone");

  // The admin ships the 3 that are there; the 5 cannot go yet.
  await admin.goto(`/dashboard/orders/${orderId}`);
  await expect(admin.getByTestId("on-backorder")).toContainText("5 on backorder");
  const form = admin.getByRole("form", { name: "Ship selected" });
  await form.getByLabel(product.name).fill("3");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toHaveCount(1);
  await expect(form).toHaveCount(0);
  await screenshot(admin, "backorders-admin-desktop");

  // The run arrives: the 5 waiting go to this order first and ship.
  await ok(
    await admin.request.post(`/api/incoming-supply/${run.id}/receive`, { data: { qty: 20 } }),
    200,
  );
  await admin.reload();
  await expect(admin.getByTestId("on-backorder")).toHaveCount(0);
  await admin.getByRole("form", { name: "Ship selected" }).getByLabel(product.name).fill("5");
  await admin
    .getByRole("form", { name: "Ship selected" })
    .getByRole("button", { name: "Ship selected" })
    .click();
  await expect(admin.getByTestId("shipment")).toHaveCount(2);
  await adminContext.close();

  await page.reload();
  await expect(page.getByTestId("shipment")).toHaveCount(2);
  await expect(page.getByTestId("on-backorder")).toHaveCount(0);
  await expect(page.getByText("Shipped", { exact: true })).toBeVisible();
});

test("a buyer cancels the units still on backorder from the order page: refunded, and the rest ships", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const id = `${Date.now() % 100000}${process.pid % 100}c`;
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const product = await newPart(admin, id, 2);
  // It takes backorders with a lead time of 30 days (no supply entered).
  await ok(
    await admin.request.put(`/api/locations/stock/${product._id}/backorders`, {
      data: { takes: true, leadDays: 30 },
    }),
    200,
  );
  await adminContext.close();

  const buyer = await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  await ok(await page.request.put(`/api/cart/items/${product._id}`, { data: { qty: 6 } }), 200);
  await page.setViewportSize(PHONE);
  await page.goto("/checkout");
  await page.getByRole("button", { name: "Place order" }).click();
  await page.waitForURL(/\/dashboard\/orders\/[0-9a-f-]{36}$/);
  const orderId = page.url().split("/").pop()!;
  await payThroughApi(page, orderId);
  await page.reload();
  await expect(page.getByRole("status").first()).toContainText(
    "We send what is in stock to the address below; the parts on backorder follow when they arrive",
  );

  const waiting = page.getByTestId("on-backorder");
  await expect(waiting).toContainText(`${product.name}: 4 on backorder · expected`);
  await waiting.getByRole("button", { name: /Cancel the 4 on backorder/ }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel the backordered parts?" });
  await expect(dialog).toContainText(
    `4 × ${product.name} will not be sent. What they cost, with their tax, is refunded the way the order was paid; the rest of the order still ships.`,
  );
  await screenshot(page, "backorder-cancel-phone");
  await dialog.getByRole("button", { name: "Cancel them" }).click();
  // $80 × 4 and its tax: the amount is the server's.
  await expect(
    page.getByText(/^4 backordered units cancelled; \$\d+\.\d\d refunded$/),
  ).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByTestId("backorder-cancelled")).toHaveText(
    `Cancelled from backorder4 × ${product.name}: not sent, refunded with a credit note`,
  );
  await expect(page.getByRole("status").first()).toContainText(
    "We pack your parts and send them to the address below",
  );
  await page.setViewportSize(DESKTOP);
  await screenshot(page, "backorder-cancel-desktop");

  // The buyer's email says what was cancelled and what comes back.
  await openMail(page, buyer.email, /Backordered parts cancelled/);
  await expect(page.getByText(`As you asked, we cancelled the parts of your order`)).toBeVisible();
  await expect(page.getByText("The rest of your order ships as usual.")).toBeVisible();
});
