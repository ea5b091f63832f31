import { signUpInBrowser } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";

test("sign up, then verify the address with the emailed link from /dev/mailbox", async ({
  page,
}) => {
  const who = await signUpInBrowser(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("status").filter({ hasText: "is not verified yet" })).toContainText(
    who.email,
  );

  await openMail(page, who.email, "Confirm your email address for PartsWorks");
  await page.getByRole("link", { name: /\/api\/auth\/verify-email\?token=/ }).click();

  await expect(page).toHaveURL(/\/email-verified$/);
  await expect(page.getByRole("status")).toHaveText("Thank you: your email address is verified.");
  await page.getByRole("link", { name: "My Profile" }).click();
  await expect(page.getByText("Verified", { exact: true })).toBeVisible();
  await expect(page.getByText("is not verified yet")).toHaveCount(0);
});
