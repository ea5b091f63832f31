import type { Page } from "@playwright/test";
import { demoAdmin, newCustomer, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

/** Searches All Users for an email and returns the row whose email cell is exactly that. */
async function findUser(page: Page, email: string) {
  await page.getByRole("searchbox", { name: "Search users" }).fill(email);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText(`matching “${email}”`)).toBeVisible();
  return page
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: email, exact: true }) });
}

// Customers get browsers of their own; the demo admin uses the test's page (whose console errors
// fail the test). Only users created here are changed: other spec files share the server.

test("an admin makes a customer admin: the button goes and the role shows admin", async ({
  page,
  browser,
  baseURL,
}) => {
  const customerContext = await browser.newContext({ baseURL });
  try {
    const promoted = await signUpThroughApi(await customerContext.newPage(), newCustomer());

    await signInThroughApi(page, demoAdmin);
    await page.goto("/dashboard");
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "All Users" })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/allusers$/);
    await expect(page.getByRole("heading", { name: "All Users" })).toBeVisible();
    await expect(page).toHaveTitle(/All Users/);

    // The admin's own row offers neither Make Admin nor Remove User.
    const own = await findUser(page, demoAdmin.email);
    await expect(own.getByText("admin", { exact: true })).toBeVisible();
    await expect(own.getByRole("button")).toHaveCount(0);

    const row = await findUser(page, promoted.email);
    await expect(row.getByText("user", { exact: true })).toBeVisible();
    // Make Admin asks first, naming the person; Cancel changes nothing.
    await row.getByRole("button", { name: "Make Admin" }).click();
    const confirm = page.getByRole("dialog", { name: `Make ${promoted.name} an admin?` });
    await expect(confirm).toContainText(promoted.email);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByText("user", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: "Make Admin" }).click();
    await confirm.getByRole("button", { name: "Make Admin" }).click();
    await expect(page.getByText(`${promoted.name} is now an admin`)).toBeVisible();
    await expect(row.getByRole("button", { name: "Make Admin" })).toHaveCount(0);
    await expect(row.getByText("admin", { exact: true })).toBeVisible();
    // The server changed it, not just the page.
    await page.reload();
    await expect(row.getByText("admin", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: "Make Admin" })).toHaveCount(0);

    // And back: Remove Admin, confirmed, makes them a customer again.
    await row.getByRole("button", { name: "Remove Admin" }).click();
    const demote = page.getByRole("dialog", { name: `Stop ${promoted.name} being an admin?` });
    await demote.getByRole("button", { name: "Remove Admin" }).click();
    await expect(page.getByText(`${promoted.name} is no longer an admin`)).toBeVisible();
    await expect(row.getByText("user", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: "Make Admin" })).toBeVisible();

    // Both changes are in the audit log, newest first, with who did them.
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Audit Log" })
      .click();
    await expect(page.getByRole("heading", { name: "Audit Log" })).toBeVisible();
    const entries = page.getByTestId("audit-row").filter({ hasText: promoted.email });
    await expect(entries.first()).toContainText("user.remove-admin");
    await expect(entries.nth(1)).toContainText("user.make-admin");
    await expect(entries.first()).toContainText(demoAdmin.email);
  } finally {
    await customerContext.close();
  }
});

test("an admin removes a customer after confirming, and the customer's browser is signed out", async ({
  page,
  browser,
  baseURL,
}) => {
  const customerContext = await browser.newContext({ baseURL });
  try {
    const customerPage = await customerContext.newPage();
    const removed = await signUpThroughApi(customerPage, newCustomer());
    await customerPage.goto("/dashboard");
    await expect(customerPage.getByRole("heading", { name: "My Info" })).toBeVisible();

    await signInThroughApi(page, demoAdmin);
    await page.goto("/dashboard/allusers");
    const row = await findUser(page, removed.email);
    await row.getByRole("button", { name: "Remove User" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove this user?" });
    await expect(dialog).toContainText("unpaid orders are cancelled");
    await expect(dialog).toContainText("paid orders are kept");
    // Cancel changes nothing.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(1);

    await row.getByRole("button", { name: "Remove User" }).click();
    await dialog.getByRole("button", { name: "Remove User" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`${removed.name} was removed`)).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText(`No users match “${removed.email}”.`)).toBeVisible();

    await customerPage.reload();
    await expect(customerPage).toHaveURL(/\/login$/);
    await expect(customerPage.getByRole("link", { name: "Login" })).toBeVisible();
  } finally {
    await customerContext.close();
  }
});

test("a list page past the end (its last rows removed) moves to the last page there is", async ({
  page,
}) => {
  await signInThroughApi(page, demoAdmin);
  for (const [path, rows] of [
    ["/dashboard/allusers", "user"],
    ["/dashboard/manageallproducts", "product"],
  ] as const) {
    await page.goto(`${path}?page=50`);
    // Far fewer than 50 pages of users or products: the page number becomes the last one's.
    await expect(page).toHaveURL(new RegExp(`${path}(\\?page=\\d)?$`));
    await expect(page.getByText(new RegExp(`^\\d+ ${rows}s?$`))).toBeVisible();
  }
});
