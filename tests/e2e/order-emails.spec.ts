import { orderAndPay, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("place and pay an order: both emails arrive in /dev/mailbox, and My Info can turn off shipping emails", async ({
  page,
}) => {
  const who = await signUpThroughApi(page);
  await orderAndPay(page, "spark");

  // The worker delivers the outbox to the local SMTP server: look until both are there (no fixed
  // limit: the test's own bounds it).
  const mine = page.getByRole("row").filter({ hasText: who.email });
  const placed = mine.filter({ hasText: /Your PartsWorks order PW-\d{6,} is placed/ });
  const paid = mine.filter({ hasText: /Payment received for your PartsWorks order PW-\d{6,}/ });
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await expect(placed).toHaveCount(1, { timeout: 500 });
    await expect(paid).toHaveCount(1, { timeout: 500 });
  }).toPass();

  await paid.getByRole("link").click();
  await expect(page.getByRole("heading", { name: /Payment received for your/ })).toBeVisible();
  await expect(page.getByText(/Transaction id: \S+\./).first()).toBeVisible();

  // My Info: shipping emails can be turned off, and the choice is kept.
  await page.goto("/dashboard");
  const shipping = page.getByRole("checkbox", { name: "Email me when an order ships" });
  await expect(shipping).toBeChecked();
  // The switch follows the saved choice: it turns off once the server has it.
  await shipping.click();
  await expect(shipping).not.toBeChecked();
  await page.reload();
  await expect(
    page.getByRole("checkbox", { name: "Email me when an order ships" }),
  ).not.toBeChecked();
});
