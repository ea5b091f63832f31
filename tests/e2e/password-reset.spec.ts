import { fillLogin, signUpInBrowser } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";

test("forgot password: the emailed link from /dev/mailbox sets a new password that signs in; the old one fails", async ({
  page,
}) => {
  const who = await signUpInBrowser(page);
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The login page (with its own Email field) stays on screen while this page's code loads.
  await expect(page.getByRole("button", { name: "Send the link" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(who.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText(who.email);

  await openMail(page, who.email, "Reset your PartsWorks password");
  await expect(page.getByRole("heading", { name: "Reset your PartsWorks password" })).toBeVisible();
  await page.getByRole("link", { name: /\/reset-password\?token=/ }).click();

  await expect(page).toHaveURL(/\/reset-password\?token=/);
  const newPassword = "fresh-start-42";
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("New password again").fill(newPassword);
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is changed");

  await page.getByRole("link", { name: "Login", exact: true }).first().click();
  await fillLogin(page, who.email, who.password);
  await expect(page.getByRole("alert")).toContainText("Invalid email or password");
  await fillLogin(page, who.email, newPassword);
  await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
});
