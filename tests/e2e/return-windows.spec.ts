import type { Page } from "@playwright/test";
import { orderAndPay, partOfItsOwn } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { shipInBrowser } from "./returns-helpers";
import { screenshot } from "./screenshots";

/**
 * An admin sets the return windows on the Returns page, on a phone (docs/returns.md "The return
 * windows"), and a customer's shipped order says the new last day at once. Other tests run
 * beside this one on the same store: the windows only grow here (parts 30 → 60 days, cores kept
 * at 90), so no return of theirs is refused for it, and the defaults are saved back at the end.
 */

const DAY = 24 * 60 * 60 * 1000;

/** The last day the order page says parts may be asked back, as a time. */
async function returnUntil(page: Page): Promise<number> {
  const words = page.getByText(/^You can ask to return parts until /);
  await expect(words).toBeVisible();
  const day = (await words.textContent())!.replace("You can ask to return parts until ", "");
  return Date.parse(day.replace(/\.$/, ""));
}

test("an admin lengthens the return window on a phone; the customer's order says the new last day", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  test.setTimeout(120_000);
  const part = await partOfItsOwn(admin, { name: "Return window sensor", minimumOrder: 1 });
  await orderAndPay(page, encodeURIComponent(part.name));
  await shipInBrowser(admin, customer.email);

  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: part.name })
    .getByRole("link", { name: /^Details/ })
    .click();
  const before = await returnUntil(page);

  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto("/dashboard/returns");
  const form = admin.getByRole("form", { name: "Return windows" });
  const parts = form.getByLabel("Parts (days after shipping; 0: no returns)");
  const cores = form.getByLabel("Cores (days after shipping; 0: no core returns)");
  await expect(parts).toHaveValue(/^\d+$/);
  try {
    // A window out of range is refused beside the field; nothing is saved.
    await parts.fill("4000");
    await form.getByRole("button", { name: "Save windows" }).click();
    await expect(
      form.getByText("The return window is a whole number of days from 0 to 3650"),
    ).toBeVisible();

    await parts.fill("60");
    await cores.fill("90");
    await form.getByRole("button", { name: "Save windows" }).click();
    await expect(
      admin.getByText(
        "Return windows saved: parts 60 days after shipping, cores 90 days after shipping",
      ),
    ).toBeVisible();
    await expect(form.getByText("Not saved yet: these are the store's defaults.")).toHaveCount(0);
    await form.scrollIntoViewIfNeeded();
    await screenshot(admin, "return-windows-phone");

    // The customer's order: 30 more days to ask.
    await page.reload();
    expect(Math.round(((await returnUntil(page)) - before) / DAY)).toBe(30);
    await screenshot(page, "order-return-until");
  } finally {
    await admin.request.put("/api/returns/windows", { data: { days: 30, coreDays: 90 } });
  }
});
