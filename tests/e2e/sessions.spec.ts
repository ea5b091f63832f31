import { newCustomer, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("My Profile lists where the customer is signed in; signing out another browser ends it there", async ({
  page,
  browser,
  baseURL,
}) => {
  const who = await signUpThroughApi(page, newCustomer());
  const elsewhere = await browser.newContext({ baseURL });
  const laptop = await browser.newContext({ baseURL });
  try {
    const phone = await elsewhere.newPage();
    await signInThroughApi(phone, who);
    const other = await laptop.newPage();
    await signInThroughApi(other, who);

    await page.goto("/dashboard");
    const card = page.getByRole("region", { name: "Where you are signed in" });
    const rows = card.getByRole("list", { name: "Signed-in browsers" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText("This browser");

    // One other browser: signed out there at once.
    await rows
      .nth(1)
      .getByRole("button", { name: /^Sign out / })
      .click();
    await expect(rows).toHaveCount(2);
    const signedOutOne = (await phone.request.get("/api/user/sessions")).status() === 401;
    const signedOutOther = (await other.request.get("/api/user/sessions")).status() === 401;
    expect([signedOutOne, signedOutOther].filter(Boolean)).toHaveLength(1);

    // The rest at once.
    await card.getByRole("button", { name: "Sign out other sessions" }).click();
    await expect(card.getByRole("status")).toHaveText("1 other browser is signed out.");
    await expect(rows).toHaveCount(1);
    expect((await phone.request.get("/api/user/sessions")).status()).toBe(401);
    expect((await other.request.get("/api/user/sessions")).status()).toBe(401);
    await other.goto("/");
    await expect(other.getByRole("link", { name: "Login" }).first()).toBeVisible();
    // This browser is still signed in.
    await page.reload();
    await expect(page.getByTestId("user-name").first()).toHaveText(who.name);
  } finally {
    await elsewhere.close();
    await laptop.close();
  }
});
