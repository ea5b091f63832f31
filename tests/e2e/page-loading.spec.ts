import { expect, test } from "./fixtures";
import { signUpInBrowser } from "./auth-helpers";

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
  // (Blocked from the start: the app preloads the code of the pages its links lead to.)
  const page = await browser.newPage({ baseURL });
  await page.route(/\/assets\/blogs-[^/]*\.js$/, (route) => route.abort());
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible(); // the app is running
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

test("on Slow 3G, a product page opened directly shows its layout within 3 s, never a blank page", async ({
  page,
}) => {
  await signUpInBrowser(page);
  const [product] = (await (await page.request.get("/api/products?limit=1")).json()) as {
    _id: string;
    name: string;
  }[];
  // Chrome DevTools' "Slow 3G" preset: 2 s latency per request, about 400 kbit/s.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 2000,
    downloadThroughput: ((500 * 1024) / 8) * 0.8,
    uploadThroughput: ((500 * 1024) / 8) * 0.8,
  });
  const started = Date.now();
  await page.goto(`/products/${product!._id}`, { waitUntil: "commit" });
  await expect(page.getByTestId("product-details-skeleton")).toBeVisible({
    timeout: Math.max(0, 3000 - (Date.now() - started)),
  });
  const firstPaint = await page.evaluate(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
  );
  expect(firstPaint).toBeLessThan(3000);
  // And then the product itself, once the app has arrived.
  await expect(page.getByRole("heading", { level: 1, name: product!.name })).toBeVisible({
    timeout: 30_000,
  });
});

test("the code of pages linked from the screen starts loading before any click", async ({
  page,
}) => {
  const blogsCode = page.waitForRequest(/\/assets\/blogs-[^/]*\.js$/);
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible(); // the app is running
  await blogsCode; // the navbar's Blogs link is on screen
  await expect(page).toHaveURL(/\/$/);
});

test("while a page's code is on its way, the progress bar runs over the page being left", async ({
  page,
}) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/blogs-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible(); // the app is running
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
  await expect(page.getByRole("progressbar", { name: "Loading" })).toBeVisible();
  release();
  await expect(page.getByRole("heading", { level: 1, name: "Blogs" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Loading" })).toHaveCount(0);
});
