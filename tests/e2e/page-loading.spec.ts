import { expect, test } from "./fixtures";

// How pages arrive: public pages pre-rendered at build time, their data preloaded, the code of a
// page loaded on first visit (scripts/prerender-pages.ts, src/web/app/router.tsx).

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("public pages arrive already rendered, with their own titles", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Car spare parts");
    await expect(page.getByRole("link", { name: "Get Started" })).toBeVisible();
    await expect(page).toHaveTitle("Car spare parts from the manufacturer · PartsWorks");

    await page.goto("/allproducts");
    await expect(page.getByRole("heading", { level: 1, name: "All products" })).toBeVisible();
    // Usable once the app runs: nothing typed before that is lost.
    await expect(page.getByRole("searchbox", { name: "Search parts" })).toBeDisabled();
    await expect(page).toHaveTitle("All products · PartsWorks");

    await page.goto("/blogs");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Copyright © 2022")).toBeVisible();
  });

  test("other pages get the app's shell, which renders them in the browser", async ({ page }) => {
    await page.goto("/allproducts?page=2");
    await expect(page.locator("#root")).toBeEmpty();
  });
});

test("the landing page asks the API for each thing once: the preloaded answers are used", async ({
  page,
}) => {
  const requests: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) requests.push(url.pathname + url.search);
  });
  await page.goto("/");
  await expect(page.getByTestId("newest-products").getByRole("article")).toHaveCount(3);
  await expect(page.getByRole("list", { name: "Reviews" }).getByRole("listitem")).not.toHaveCount(
    0,
  );
  await page.waitForLoadState("networkidle");
  expect(requests.sort()).toEqual(
    [
      "/api/auth/get-session",
      "/api/config",
      "/api/products?limit=3&sort=newest",
      "/api/reviews/summary",
      "/api/reviews?limit=6&offset=0",
    ].sort(),
  );
});

test("a new page starts at the top; Back returns to where the reader was", async ({ page }) => {
  await page.goto("/");
  // The app has replaced the pre-rendered page (only it shows Login) and the page has its data.
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Reviews" }).getByRole("listitem")).not.toHaveCount(
    0,
  );
  await page.getByText("Copyright © 2022").scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(500);

  await page.getByRole("contentinfo").getByRole("link", { name: "Blogs" }).click();
  await expect(page).toHaveURL(/\/blogs$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(before);
});

test("a page whose code cannot be downloaded says so and offers a reload", async ({
  browser,
  baseURL,
}) => {
  // A page of its own: the failed download is logged as an error, which is the point here.
  const page = await browser.newPage({ baseURL });
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible(); // the app is running
  await page.route(/\/assets\/blogs-[^/]*\.js$/, (route) => route.abort());
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
  await expect(page.getByRole("alert")).toHaveText("This page could not be loaded.");
  await expect(page.getByRole("button", { name: "Reload the page" })).toBeVisible();

  // The navbar still works, and another page clears the message.
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Review" })
    .click();
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByText("This page could not be loaded.")).toHaveCount(0);
  await page.close();
});
