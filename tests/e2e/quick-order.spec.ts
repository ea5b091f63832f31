import { signUpThroughApi } from "./auth-helpers";
import { signUpTradeBuyer } from "./company-invitation";
import { expect, test } from "./fixtures";

test("a buyer quick-orders by pasting numbers of every kind, adds the good lines, pays, and orders again", async ({
  page,
}) => {
  // On a phone: the quick order page is in the menu, and its table fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  // A garage's buyer: each part's trade minimum holds (a retail customer's is one part).
  await signUpTradeBuyer(page);
  await page.goto("/");
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("link", { name: "Quick order" }).click();
  await expect(page.getByRole("heading", { name: "Quick order" })).toBeVisible();

  await page.getByLabel("Part numbers and quantities").fill(
    [
      "Part number;Qty",
      "PW-EN-7014;3", // ours
      "04465-02220\t2", // Toyota's OE number of PW-BK-3001
      "ILZKR7B-11S, 10", // NGK's number of PW-IG-2206
      "pw el 4120 2", // ours, lower case with spaces
      "PW-XX-9999 1", // nobody's
    ].join("\n"),
  );
  await page.getByRole("button", { name: "Check lines" }).click();
  const lines = page.getByTestId("quick-order-line");
  await expect(lines).toHaveCount(5);
  await expect(page.getByText("4 of 5 lines ready")).toBeVisible();
  await expect(lines.nth(1)).toContainText("OE number 04465-02220 (Toyota)");
  // A found part says what it is: its attributes (docs/attributes.md).
  await expect(lines.nth(1).getByTestId("quick-order-attributes")).toHaveText(
    "Diameter 300 mm · Thickness 25 mm · Vent type Vented · Axle Front",
  );
  await expect(lines.nth(2)).toContainText("NGK number ILZKR7B-11S");
  await expect(lines.nth(3)).toContainText("PW-EL-4120");
  await expect(lines.nth(4).getByTestId("quick-order-problems")).toContainText(
    "No part has the number PW-XX-9999",
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A quantity below the minimum is a problem of its line, fixed in place.
  await lines.nth(0).getByLabel("Quantity, line 2").fill("1");
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(lines.nth(0).getByTestId("quick-order-problems")).toContainText(
    "please order at least 3",
  );
  await lines.nth(0).getByRole("button", { name: "Use 3" }).click();
  await expect(page.getByText("4 of 5 lines ready")).toBeVisible();

  await page.getByRole("button", { name: "Add all to cart" }).click();
  await expect(page.getByText("4 lines added to your cart")).toBeVisible();
  // The unknown line stays for editing.
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText("PW-XX-9999");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(4);
  await page.getByRole("button", { name: "Check out" }).click();
  // No saved address yet: checkout asks where to deliver (docs/shipping.md).
  await expect(page.getByRole("heading", { name: "Where should we deliver?" })).toBeVisible();
  await page.getByLabel("Address line 1").fill("14 Garage Lane");
  await page.getByLabel("City").fill("Leeds");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Postal code").fill("ls1 4ab");
  await page.getByLabel("Phone").fill("+44 113 496 0000");
  await page.getByRole("button", { name: "Use this address" }).click();
  await expect(page.getByRole("radio", { name: /^UK Tracked/ })).toBeChecked();
  const total = (await page.getByTestId("checkout-total").textContent())!;
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  await expect(page.getByTestId("order-line")).toHaveCount(4);
  await page.getByRole("link", { name: `Pay ${total}` }).click();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  await expect(page.getByTestId("cart-link").first()).toHaveAccessibleName("Cart, 0 items");

  // "Order again" on My Items puts the paid order's parts back in the cart.
  await page.goto("/dashboard/myitems");
  const order = page.getByTestId("my-order");
  await expect(order.getByText("Paid", { exact: true })).toBeVisible();
  await order.getByRole("button", { name: /^Order again/ }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByText("4 parts put in your cart")).toBeVisible();
  await expect(page.getByTestId("cart-line")).toHaveCount(4);
  await expect(
    page.getByTestId("cart-line").filter({ hasText: "Ventilated Brake Disc & Caliper Kit" }),
  ).toHaveCount(1);
});

test("pasted text past the quick order's length is refused in plain words", async ({ page }) => {
  await signUpThroughApi(page);
  await page.goto("/quick-order");
  await page.getByLabel("Part numbers and quantities").fill("x".repeat(100_001));
  await page.getByRole("button", { name: "Check lines" }).click();
  await expect(page.getByRole("alert")).toHaveText("Paste at most 100,000 characters at a time");
});
