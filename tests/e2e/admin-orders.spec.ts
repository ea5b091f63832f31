import {
  demoAdmin,
  E2E_SHIP_TO,
  orderAndPay,
  partOfItsOwn,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

test("an admin marks a paid order shipped, and the customer's My Items shows it shipped", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  // The customer orders and pays (through the API, as the browser would).
  const product = await orderAndPay(page, "headlight");

  // The admin, in a browser of their own.
  await admin.goto("/dashboard/manageallorders");
  await expect(admin.getByRole("heading", { name: "Manage All Orders" })).toBeVisible();
  await expect(admin.getByTestId("status-counts")).toContainText("Paid");
  await expect(admin.locator("canvas").first()).toBeVisible();

  await admin.getByLabel("Search orders").fill(customer.email);
  await admin.getByRole("button", { name: "Search" }).click();
  const row = admin.getByTestId("admin-order").filter({ hasText: customer.email });
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Paid")).toBeVisible();
  await row.getByRole("button", { name: "Mark shipped" }).click();
  await admin
    .getByRole("dialog", { name: "Mark this order shipped?" })
    .getByRole("button", { name: "Mark shipped" })
    .click();
  await expect(row.getByTestId("order-status")).toHaveText("Shipped");
  await expect(row.getByRole("button", { name: "Mark shipped" })).toHaveCount(0);

  await page.goto("/dashboard/myitems");
  await expect(
    page.getByTestId("my-order").filter({ hasText: product.name }).getByText("Shipped"),
  ).toBeVisible();
});

test("an admin cancels an unpaid order and its stock returns", async ({
  page,
  browser,
  baseURL,
}) => {
  const customer = await signUpThroughApi(page);
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  // A part of the test's own: the stock compared moves only with this order (a demo part's moves
  // meanwhile with the orders of the tests running beside this one).
  const product = await partOfItsOwn(admin, { name: "Cancelled hub bearing", minimumOrder: 2 });
  const placed = await page.request.post("/api/orders", {
    data: {
      productId: product._id,
      orderQty: product.minimumOrder,
      phonrNo: "07700900123",
      Address: "3 Depot Street",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(placed.status()).toBe(201);
  const stockAfterOrder = (await (await page.request.get(`/api/products/${product._id}`)).json())
    .availableQuantity;

  await admin.goto("/dashboard/manageallorders");
  await admin.getByLabel("Status").selectOption("unpaid");
  await admin.getByLabel("Search orders").fill(customer.email);
  await admin.getByRole("button", { name: "Search" }).click();
  const row = admin.getByTestId("admin-order").filter({ hasText: customer.email });
  await row.getByRole("button", { name: "Cancel order" }).click();
  await admin
    .getByRole("dialog", { name: "Cancel this order?" })
    .getByRole("button", { name: "Cancel order" })
    .click();
  // Filtered to unpaid, the cancelled order leaves the list.
  await expect(row).toHaveCount(0);
  await adminContext.close();

  const stockNow = (await (await page.request.get(`/api/products/${product._id}`)).json())
    .availableQuantity;
  expect(stockNow).toBe(stockAfterOrder + product.minimumOrder);

  // The customer's order page says who cancelled it and where its parts went.
  await page.goto(`/dashboard/orders/${(await placed.json()).order._id}`);
  await expect(page.getByTestId("cancelled-words")).toHaveText(
    /^We cancelled this order, and its parts went back on sale\. Browse all products$/,
  );
});

test("on a touch screen, a finger sliding along the orders chart moves its legend", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, hasTouch: true });
  const admin = await context.newPage();
  await signInThroughApi(admin, demoAdmin);
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto("/dashboard/manageallorders");
  const over = admin.locator(".u-over");
  await expect(over).toBeVisible();
  await over.scrollIntoViewIfNeeded();
  const legendDay = admin.locator(".u-legend .u-series").first().locator(".u-value");
  const box = (await over.boundingBox())!;
  const y = box.y + box.height / 2;
  // A real finger: down, slide, and (only at the end) up. No mouse events stand in for it.
  const cdp = await context.newCDPSession(admin);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: type === "touchEnd" ? [] : [{ x, y }],
    });
  await touch("touchStart", box.x + box.width * 0.2);
  const first = await legendDay.textContent();
  expect(first).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/); // a day, where there was a dash
  for (const f of [0.4, 0.6, 0.8]) await touch("touchMove", box.x + box.width * f);
  await expect(legendDay).not.toHaveText(first!);
  await expect(legendDay).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  await touch("touchEnd", 0);
  await context.close();
});

test("an admin sees who holds stock and cancels an account's holds in one action", async ({
  page,
  browser,
  baseURL,
}) => {
  const customer = await signUpThroughApi(page);
  for (const q of ["radiator", "alternator"]) {
    const [product] = await (await page.request.get(`/api/products?q=${q}`)).json();
    const placed = await page.request.post("/api/orders", {
      data: {
        productId: product._id,
        orderQty: product.minimumOrder,
        phonrNo: "07700900123",
        Address: "3 Depot Street",
        shipTo: E2E_SHIP_TO,
      },
    });
    expect(placed.status()).toBe(201);
  }

  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  await admin.goto("/dashboard/manageallorders");
  const holds = admin.getByTestId("account-holds").filter({ hasText: customer.email });
  await expect(holds).toHaveCount(1);
  await holds.getByRole("button", { name: `Cancel holds: ${customer.email}` }).click();
  const dialog = admin.getByRole("dialog", { name: "Cancel this account's holds?" });
  await expect(dialog).toContainText(customer.email);
  await dialog.getByRole("button", { name: "Cancel holds" }).click();
  await expect(admin.getByText("2 unpaid orders cancelled")).toBeVisible();
  await expect(holds).toHaveCount(0);
  await adminContext.close();

  const mine = await (await page.request.get("/api/orders")).json();
  expect(mine.map((o: { status: string }) => o.status)).toEqual(["cancelled", "cancelled"]);
});
