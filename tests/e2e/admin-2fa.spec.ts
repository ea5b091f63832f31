import { totpCode } from "../support/totp";
import {
  demoAdmin,
  fillLogin,
  newCustomer,
  signInInBrowser,
  signUpInBrowser,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

// A fresh admin: other spec files share the server and the demo admin, whose sign-in must not
// start asking for codes.
test("an admin turns on two-factor authentication and signs in with a TOTP code", async ({
  page,
  browser,
  baseURL,
}) => {
  const who = await signUpInBrowser(page, newCustomer());
  const adminContext = await browser.newContext({ baseURL });
  try {
    const admin = await adminContext.newPage();
    await signInInBrowser(admin, demoAdmin);
    const promoted = await admin.request.put(`/api/user/admin/${encodeURIComponent(who.email)}`);
    expect(promoted.status()).toBe(200);
  } finally {
    await adminContext.close();
  }

  await page.goto("/dashboard");
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await section.getByLabel("Password").fill(who.password);
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  const secret = (await section.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  const uri = `otpauth://totp/PartsWorks?secret=${secret}`;
  await section.getByLabel("Code from the app").fill(totpCode(uri));
  await section.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(section.getByRole("status")).toHaveText("Two-factor authentication is on.");
  await expect(
    section.getByRole("list", { name: "Backup codes" }).getByRole("listitem"),
  ).toHaveCount(10);

  // Signing in again asks for a code after the password.
  // Wait for the sign-out to finish: navigating away while its request is in flight can leave the
  // session alive (the page then lands back on / still signed in).
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
  await page.goto("/login");
  await fillLogin(page, who.email, who.password);
  await page.getByLabel("Authentication code").fill(totpCode(uri));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
  await page.goto("/dashboard/allusers");
  await expect(page.getByRole("heading", { name: "All Users" })).toBeVisible();
});
