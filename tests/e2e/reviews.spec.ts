import type { Page } from "@playwright/test";
import { reviewMessages, VERIFIED_BUYER_LABEL } from "../../src/contract/reviews";
import { demoAdmin, orderAndPay, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// One after another, in one worker: these tests share the store's reviews (only this file writes
// them), and some compare the summary's count before and after their own change, or look for
// their review among the newest on /review. Side by side, another test's review published or
// hidden meanwhile moves the count they compare.
test.describe.configure({ mode: "default" });

let n = 0;
function uniqueText(what: string) {
  n += 1;
  return `${what} ${Date.now()}-${process.pid}-${n}`;
}

/** Signs a new customer up and pays an order of theirs: their reviews are published at once. */
async function signUpBuyer(page: Page) {
  const who = await signUpThroughApi(page);
  await orderAndPay(page, "wiper");
  return who;
}

async function addReview(page: Page, stars: number, text: string) {
  await page.goto("/dashboard/reviews");
  await expect(page.getByRole("heading", { name: "Add a Review" })).toBeVisible();
  await page
    .getByRole("group", { name: "Rating" })
    .getByRole("radio", { name: stars === 1 ? "1 star" : `${stars} stars` })
    .check();
  await page.getByLabel("Your review").fill(text);
  await page.getByRole("button", { name: "Add Review" }).click();
}

test("a buyer adds a review and sees it on /review under their name, marked Verified buyer", async ({
  page,
}) => {
  const who = await signUpBuyer(page);
  await page.goto("/dashboard/reviews");
  await expect(page).toHaveTitle(/Add a Review/);

  // Nothing chosen or written yet: the form says what is missing and sends nothing.
  await page.getByRole("button", { name: "Add Review" }).click();
  await expect(page.getByText("Choose a rating from 1 to 5")).toBeVisible();
  await expect(page.getByText("Write your review")).toBeVisible();

  const text = uniqueText("The brake pads fit perfectly.");
  await addReview(page, 4, text);
  await expect(page.getByText(reviewMessages.added)).toBeVisible();
  // A buyer's review is published at once: no waiting line.
  await expect(page.getByText(reviewMessages.pending)).toHaveCount(0);
  // The form is ready for another review.
  await expect(page.getByLabel("Your review")).toHaveValue("");
  await expect(page.getByRole("radio", { name: "4 stars" })).not.toBeChecked();

  await page.goto("/review");
  const card = page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({
    hasText: text,
  });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(who.name);
  await expect(card.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
  await expect(card.getByText(VERIFIED_BUYER_LABEL, { exact: true })).toBeVisible();
  await expect(card).not.toContainText(who.email);
});

test("a new customer's review waits for approval, and appears on /review once the admin approves it", async ({
  page,
  browser,
}) => {
  const text = uniqueText("Quick delivery, good packaging.");
  const customerContext = await browser.newContext();
  const customerPage = await customerContext.newPage();
  const who = await signUpThroughApi(customerPage);
  await addReview(customerPage, 2, text);
  await expect(customerPage.getByText(reviewMessages.added)).toBeVisible();
  await expect(
    customerPage.getByRole("status").filter({ hasText: reviewMessages.pending }),
  ).toBeVisible();
  await customerPage.goto("/review");
  await expect(customerPage.getByRole("heading", { name: "Customer reviews" })).toBeVisible();
  const publicList = customerPage.getByRole("list", { name: "Reviews", exact: true });
  await expect(publicList.getByRole("listitem").first()).toBeVisible();
  await expect(publicList.getByText(text)).toHaveCount(0);
  // Customers do not see the queue.
  await expect(
    customerPage.getByRole("heading", { name: /Reviews awaiting approval/ }),
  ).toHaveCount(0);

  const count = async () =>
    ((await (await page.request.get("/api/reviews/summary")).json()) as { count: number }).count;
  await signInThroughApi(page, demoAdmin);
  await page.goto("/review");
  await expect(
    page.getByRole("heading", { name: /^Reviews awaiting approval \(\d+\)$/ }),
  ).toBeVisible();
  const queue = page.getByRole("list", { name: "Reviews awaiting approval" });
  const waiting = queue.getByRole("listitem").filter({ hasText: text });
  await expect(waiting).toContainText(who.name);
  await expect(waiting.getByText(VERIFIED_BUYER_LABEL)).toHaveCount(0);
  const before = await count();
  await waiting.getByRole("button", { name: "Approve" }).click();
  await expect(queue.getByText(text)).toHaveCount(0);
  const reviews = page.getByRole("list", { name: "Reviews", exact: true });
  await expect(reviews.getByText(text)).toHaveCount(1);
  expect(await count()).toBeGreaterThanOrEqual(before + 1);

  await customerPage.reload();
  await expect(publicList.getByText(text)).toHaveCount(1);
  await customerContext.close();
});

test("markup in a review shows as plain text and never runs", async ({ page }) => {
  await signUpBuyer(page);
  const text = `<img src=x onerror="window.__xss=1"> ${uniqueText("xss")}`;
  await addReview(page, 1, text);
  await expect(page.getByText(reviewMessages.added)).toBeVisible();

  await page.goto("/review");
  const reviews = page.getByRole("list", { name: "Reviews", exact: true });
  await expect(reviews.getByText(text, { exact: true })).toBeVisible();
  await expect(reviews.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
});

test("the summary on /review shows the average and how many reviews there are", async ({
  page,
}) => {
  const readCount = async () =>
    ((await (await page.request.get("/api/reviews/summary")).json()) as { count: number }).count;
  const before = await readCount();
  await page.goto("/review");
  const summary = page.getByTestId("review-summary");
  await expect(summary).toHaveText(/^\d\.\d out of 5 · [\d,]+ reviews?$/);
  const shown = Number(
    /· ([\d,]+) review/.exec((await summary.textContent()) ?? "")?.[1]?.replace(/,/g, ""),
  );
  // Other tests may add reviews meanwhile, so the count shown lies between two API readings.
  expect(shown).toBeGreaterThanOrEqual(before);
  expect(shown).toBeLessThanOrEqual(await readCount());
  expect(before).toBeGreaterThan(0);
});

test("when the review cannot be added, the failure message shows in red and as a toast", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await page.goto("/dashboard/reviews");
  await expect(page.getByRole("heading", { name: "Add a Review" })).toBeVisible();
  // The session ends while the form is open (signed out elsewhere): the server refuses the review.
  await page.context().clearCookies();
  await page.getByRole("radio", { name: "5 stars" }).check();
  await page.getByLabel("Your review").fill(uniqueText("Never stored"));
  await page.getByRole("button", { name: "Add Review" }).click();

  const inline = page.getByRole("alert").filter({ hasText: reviewMessages.failed });
  await expect(inline).toBeVisible();
  await expect(inline).toHaveClass(/text-error/);
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: reviewMessages.failed }),
  ).toBeVisible();
  await expect(page.getByText(reviewMessages.added)).toHaveCount(0);
});

test("an admin hides one review, shows it again, hides it, and deletes another on /review; the count follows", async ({
  page,
  browser,
}) => {
  // Three sign-ins, two paid orders and two reviews before the admin's part: on a loaded 2-core
  // machine it ran out of the default 60 s with every step passing, only slowly.
  test.slow();
  const hideText = uniqueText("Hide me");
  const deleteText = uniqueText("Delete me");
  for (const text of [hideText, deleteText]) {
    const context = await browser.newContext();
    const customerPage = await context.newPage();
    await signUpBuyer(customerPage);
    await addReview(customerPage, 1, text);
    await expect(customerPage.getByText(reviewMessages.added)).toBeVisible();
    await context.close();
  }
  const count = async () =>
    ((await (await page.request.get("/api/reviews/summary")).json()) as { count: number }).count;
  await signInThroughApi(page, demoAdmin);
  await page.goto("/review");
  const reviews = page.getByRole("list", { name: "Reviews", exact: true });
  const before = await count();

  await reviews
    .getByRole("listitem")
    .filter({ hasText: hideText })
    .getByRole("button", { name: "Hide" })
    .click();
  await expect(reviews.getByText(hideText)).toHaveCount(0);
  expect(await count()).toBe(before - 1);

  // Hidden reviews are listed for admins, and one can be shown again.
  const hidden = page.getByRole("list", { name: "Hidden reviews" });
  await hidden
    .getByRole("listitem")
    .filter({ hasText: hideText })
    .getByRole("button", { name: "Show again" })
    .click();
  await expect(reviews.getByText(hideText)).toHaveCount(1);
  await expect(hidden.getByText(hideText)).toHaveCount(0);
  expect(await count()).toBe(before);
  await reviews
    .getByRole("listitem")
    .filter({ hasText: hideText })
    .getByRole("button", { name: "Hide" })
    .click();
  await expect(hidden.getByText(hideText)).toHaveCount(1);
  expect(await count()).toBe(before - 1);

  await reviews
    .getByRole("listitem")
    .filter({ hasText: deleteText })
    .getByRole("button", { name: "Delete" })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(reviews.getByText(deleteText)).toHaveCount(0);
  expect(await count()).toBe(before - 2);
});
