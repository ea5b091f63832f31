import type { Browser, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { openMail } from "./mailbox";
import { demoAdmin, newCustomer, signInThroughApi, signUpThroughApi } from "./session";

/**
 * A new person in a browser of their own who joins a company from the emailed invitation
 * (docs/companies.md): `accept()` signs them up, opens the invitation in the demo mailbox and follows
 * its link. The caller invites `who.email` first and closes `context` at the end.
 */
export async function joinByEmail(
  browser: Browser,
  baseURL: string | undefined,
  companyName: string,
) {
  const who = newCustomer();
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  return {
    who,
    context,
    page,
    async accept() {
      await signUpThroughApi(page, who);
      await openMail(page, who.email, `You are invited to buy for ${companyName}`);
      const link = await page
        .locator('a[href*="/company-invitation?token="]')
        .first()
        .getAttribute("href");
      await page.goto(link!);
      await expect(page.getByRole("status")).toContainText(`You joined ${companyName}`);
    },
  };
}

/** An admin's (or owner's) invitation of `email` to the company as `role`, through the API. */
export async function inviteToCompany(
  inviter: Page,
  companyId: string,
  email: string,
  role: "owner" | "buyer",
) {
  const res = await inviter.request.post(`/api/companies/${companyId}/invitations`, {
    data: { email, role },
  });
  expect(res.status()).toBe(201);
}

/**
 * A new buyer of a new company (the garage group: each part's trade minimum holds,
 * docs/pricing.md), signed in on `page`: the admin's set-up through the API, then the invitation
 * accepted from the demo mailbox. For journeys of the trade minimums, which retail customers do
 * not have.
 */
export async function signUpTradeBuyer(page: Page) {
  await signInThroughApi(page, demoAdmin);
  const name = `Trade garage ${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const company = await page.request.post("/api/companies", { data: { name } });
  expect(company.status()).toBe(201);
  const who = newCustomer();
  await inviteToCompany(page, ((await company.json()) as { id: string }).id, who.email, "buyer");
  await page.context().clearCookies();
  await signUpThroughApi(page, who);
  await openMail(page, who.email, `You are invited to buy for ${name}`);
  const link = await page
    .locator('a[href*="/company-invitation?token="]')
    .first()
    .getAttribute("href");
  await page.goto(link!);
  await expect(page.getByRole("status")).toContainText(`You joined ${name}`);
  return who;
}
