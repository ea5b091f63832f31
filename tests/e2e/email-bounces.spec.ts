import { demoAdmin, newCustomer, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// The demo's local SMTP server refuses every address under the reserved `.invalid` domain with
// 550 (as a real server refuses a mailbox that does not exist): the customer's sign-up email is
// refused for good, the worker marks the address, and the admin sees it in All Users.
test("an admin sees a customer whose address bounces in All Users and marks it deliverable", async ({
  page,
  browser,
  baseURL,
}) => {
  const customerContext = await browser.newContext({ baseURL });
  try {
    const bouncing = await signUpThroughApi(await customerContext.newPage(), {
      ...newCustomer(),
      email: `bouncing-${Date.now()}-${process.pid}@mailbox.invalid`,
    });

    await signInThroughApi(page, demoAdmin);
    await page.goto("/dashboard/allusers");
    await expect(page.getByRole("heading", { name: "All Users" })).toBeVisible();
    const row = page
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: bouncing.email }) });
    // The verification email is refused a moment after the sign-up: search until it shows (no
    // fixed limit: the test's own bounds it).
    await expect(async () => {
      await page.getByRole("searchbox", { name: "Search users" }).fill(bouncing.email);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect(row.getByText("Email bounces", { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass();
    // The server's answer and its date are the badge's title.
    await expect(row.getByText("Email bounces", { exact: true })).toHaveAttribute(
      "title",
      /^Refused for good on .+: 550 .*domain does not exist/,
    );

    // Mark deliverable asks first, then the badge and the button go, also after a reload.
    await row.getByRole("button", { name: "Mark deliverable" }).click();
    const confirm = page.getByRole("dialog", { name: `Mark ${bouncing.email} deliverable?` });
    await expect(confirm).toContainText("550");
    await confirm.getByRole("button", { name: "Mark deliverable" }).click();
    await expect(page.getByText(`${bouncing.email} is marked deliverable`)).toBeVisible();
    await expect(row.getByText("Email bounces", { exact: true })).toHaveCount(0);
    await expect(row.getByRole("button", { name: "Mark deliverable" })).toHaveCount(0);
    await page.reload();
    await expect(row).toHaveCount(1);
    await expect(row.getByText("Email bounces", { exact: true })).toHaveCount(0);

    // And it is in the audit log, with who did it.
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Audit Log" })
      .click();
    const entry = page.getByTestId("audit-row").filter({ hasText: bouncing.email }).first();
    await expect(entry).toContainText("user.mark-deliverable");
    await expect(entry).toContainText(demoAdmin.email);
  } finally {
    await customerContext.close();
  }
});
