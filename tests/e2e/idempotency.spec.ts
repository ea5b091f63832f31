import { productNamed, saveAddressThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// docs/idempotency.md: the web app sends an Idempotency-Key with each attempt of an order, and
// the same key when the same order is sent again after it went unanswered.

test("Confirm order pressed again after its answer was lost: the same key, one order placed and shown", async ({
  browser,
  baseURL,
}) => {
  // A page of its own: the lost answer is logged as an error, which is the point here.
  const page = await browser.newPage({ baseURL });
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "spark plug");
  const keys: string[] = [];
  await page.route("**/api/orders", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    keys.push(route.request().headers()["idempotency-key"] ?? "");
    if (keys.length > 1) return route.continue();
    // The store gets the first one and places the order; its answer never arrives.
    await route.fetch();
    await route.abort("connectionreset");
  });
  await page.goto(`/products/${p._id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(p.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  const confirm = dialog.getByRole("button", { name: "Confirm order" });
  await confirm.click();
  // Not told it was placed; the dialog stays open, and the customer presses again.
  await expect.poll(() => keys.length).toBe(1);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[\x20-\x7e]{1,255}$/);
  expect(keys[1]).toBe(keys[0]);
  await page.goto("/dashboard/myitems");
  await expect(page.getByTestId("my-order").filter({ hasText: p.name })).toHaveCount(1);
  await page.close();
});
