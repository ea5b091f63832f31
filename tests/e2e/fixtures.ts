import { test as base, expect, type Page } from "@playwright/test";
import { demoAdmin, signInThroughApi, signUpThroughApi, type NewAccount } from "./session";

interface Fixtures {
  /** A new customer, signed up (unverified, as the sign-up form leaves it) in `page`'s context. */
  customer: NewAccount;
  /** A page of its own browser context, signed in as the demo admin (no page loaded yet). */
  adminPage: Page;
}

export const test = base.extend<Fixtures>({
  // The server's address is known only once global-setup has started it.
  // Playwright reads a fixture's dependencies from its destructured first argument: none here.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is not set: is tests/e2e/global-setup.ts running?");
    await use(url);
  },
  page: async ({ page }, use) => {
    // A page error or console error that no test looked at fails the test.
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      // Chromium logs every 4xx answer; an API's 4xx is an answer the page shows, not a fault,
      // and so is the 404 of a path that is no page (the app shows the not-found page).
      const at = m.location().url;
      const expectedAnswer =
        (/status of 4\d\d/.test(m.text()) &&
          decodeURIComponent(new URL(at).pathname).startsWith("/api/")) ||
        (/status of 404/.test(m.text()) && at === page.url());
      if (!expectedAnswer) problems.push(`console.error: ${m.text()}`);
    });
    await use(page);
    expect(problems, "errors in the browser").toEqual([]);
  },
  // Through the store's auth API, not the forms (tests/e2e/session.ts; docs/testing.md).
  customer: async ({ page }, use) => {
    await use(await signUpThroughApi(page));
  },
  adminPage: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL });
    try {
      const admin = await context.newPage();
      await signInThroughApi(admin, demoAdmin);
      await use(admin);
    } finally {
      await context.close();
    }
  },
});

export { expect };
