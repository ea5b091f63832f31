import { totpCode } from "../support/totp";
import { demoAdmin, fillLogin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// A fresh admin: other spec files share the server and the demo admin, whose sign-in must not
// start asking for codes.
test("an admin turns on two-factor authentication (QR code), signs in with a TOTP code, then a new backup code, and turns it off", async ({
  page,
  browser,
  baseURL,
}) => {
  // Five sign-ins and four forms asking a password (each hashed): 37 s on a quiet machine, over
  // the default 60 s on a loaded one (this stop's CI).
  test.setTimeout(120_000);
  // Set-up through the auth API; the subject, the 2FA forms and the sign-ins, goes through pages.
  const who = await signUpThroughApi(page);
  const adminContext = await browser.newContext({ baseURL });
  try {
    const admin = await adminContext.newPage();
    await signInThroughApi(admin, demoAdmin);
    const promoted = await admin.request.put(`/api/user/admin/${encodeURIComponent(who.email)}`);
    expect(promoted.status()).toBe(200);
  } finally {
    await adminContext.close();
  }

  await page.goto("/dashboard");
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  // The page may render once more as the session (now an admin's) comes in, emptying the field:
  // fill and press again until the QR code shows.
  await expect(async () => {
    await section.getByLabel("Password").fill(who.password);
    await section
      .getByRole("button", { name: "Turn on two-factor authentication" })
      .click({ timeout: 2_000 });
    await expect(section.getByRole("img", { name: /QR code/ })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
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

  // New backup codes replace the old ones; one of them signs in instead of a code. They need
  // the password and a current code.
  await page.goto("/dashboard");
  await section.getByLabel("Password").fill(who.password);
  await section.getByLabel("Authentication code").fill(totpCode(uri));
  await section.getByRole("button", { name: "Get new backup codes" }).click();
  const codes = section.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const backupCode = (await codes.first().textContent())!.trim();
  await section.getByRole("button", { name: "I saved them" }).click();
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
  await page.goto("/login");
  await fillLogin(page, who.email, who.password);
  await page.getByLabel("Use a backup code").check();
  await page.getByLabel("Backup code", { exact: true }).fill(backupCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();

  // Turned off (with the password and a code), sign-in asks for no code.
  await page.goto("/dashboard");
  await section.getByLabel("Password").fill(who.password);
  await section.getByLabel("Authentication code").fill(totpCode(uri));
  await section.getByRole("button", { name: "Turn off two-factor authentication" }).click();
  await expect(section.getByRole("status")).toHaveText("Two-factor authentication is off.");
  await expect(
    section.getByRole("button", { name: "Turn on two-factor authentication" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
  await page.goto("/login");
  await fillLogin(page, who.email, who.password);
  await expect(page.getByTestId("user-name").first()).toHaveText(who.name);
  await expect(page.getByLabel("Authentication code")).toHaveCount(0);
});
