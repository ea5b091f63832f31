import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

test("the landing page shows the 3 newest products and the four summary figures", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Car spare parts");
  const newest = page.getByTestId("newest-products").getByRole("article");
  await expect(newest).toHaveCount(3);
  // The three newest, newest first, as the API lists them (other tests add products meanwhile:
  // read both again until they agree).
  await expect(async () => {
    await page.reload();
    const api = await page.request.get("/api/products?limit=3&sort=newest");
    const names = ((await api.json()) as { name: string }[]).map((p) => p.name);
    await expect(newest.getByRole("heading")).toHaveText(names, { timeout: 2000 });
  }).toPass();

  const summary = page.getByTestId("business-summary");
  for (const [value, label] of [
    ["72+", "Countries"],
    ["500+", "Projects"],
    ["300+", "Clients"],
    ["400+", "Feedbacks"],
  ] as const) {
    await expect(summary.getByText(value, { exact: true })).toBeVisible();
    await expect(summary.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Our leaders" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Our clients" })).toBeVisible();
  // The reviews' code loads once the visitor scrolls (or moves, types, touches) towards them.
  await page.getByRole("heading", { name: "What our customers say" }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("list", { name: "Reviews" }).getByRole("listitem")).not.toHaveCount(
    0,
  );
  await expect(page.getByText("Copyright © 2022")).toBeVisible();
});

test("Get Started leads to all products", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Get Started" }).click();
  await expect(page).toHaveURL(/\/allproducts$/);
  await expect(page.getByRole("heading", { name: "All products" })).toBeVisible();
});

test("See All leads to all products, which pages, searches and sorts", async ({ page }) => {
  await page.goto("/home");
  await page.getByRole("link", { name: "See All" }).click();
  await expect(page).toHaveURL(/\/allproducts$/);
  await expect(page.getByRole("article")).toHaveCount(12);
  // The 14 demo products, plus any part another test has just made or imported: 2 pages or more.
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
  const total = Number(
    (await page.request.get("/api/products?limit=1")).headers()["x-total-count"],
  );
  expect(total).toBeGreaterThanOrEqual(14);
  await expect(page.getByRole("article")).toHaveCount(Math.min(12, total - 12));

  await page.getByRole("searchbox", { name: "Search parts" }).fill("radiator");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=radiator/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("article").getByRole("heading")).toContainText(/radiator/i);

  await page.getByRole("searchbox", { name: "Search parts" }).fill("");
  await page.getByRole("button", { name: "Search" }).click();
  // The whole list again before sorting it (a sort chosen before the page has taken the cleared
  // search builds on the URL it shows, which still searches "radiator").
  await expect(page).not.toHaveURL(/q=radiator/);
  await expect(page.getByRole("article")).toHaveCount(12);
  await page.getByLabel("Sort by").selectOption("price_asc");
  await expect(page).toHaveURL(/sort=price_asc/);
  const api = await page.request.get("/api/products?limit=1&sort=price_asc");
  const [cheapest] = (await api.json()) as { name: string }[];
  await expect(page.getByRole("article").first().getByRole("heading")).toHaveText(cheapest!.name);
});

test("an unknown path answers 404 and shows the not-found image", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("img", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("the navbar reaches blogs, review and portfolio", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Blogs" }).click();
  await expect(page).toHaveURL(/\/blogs$/);
  await expect(page.getByRole("heading", { level: 1, name: "Blogs" })).toBeVisible();
  await expect(page.getByRole("article")).not.toHaveCount(0);

  await nav.getByRole("link", { name: "Review" }).click();
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByRole("heading", { name: "Customer reviews" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Reviews" }).getByRole("listitem")).not.toHaveCount(
    0,
  );

  await nav.getByRole("link", { name: "My PortFolio" }).click();
  await expect(page).toHaveURL(/\/myprotfolio$/);
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();

  await nav.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("on a phone the menu opens and its links navigate", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.locator("#mobile-menu").getByRole("link", { name: "Blogs" }).click();
  await expect(page).toHaveURL(/\/blogs$/);
  await expect(page.locator("#mobile-menu")).toBeHidden();
});

test("on a phone the menu closes on Escape (focus back on its button) and on a tap outside", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const menuButton = page.getByRole("button", { name: "Open menu" });
  await menuButton.click();
  await expect(page.locator("#mobile-menu")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.locator("#mobile-menu")).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();

  await menuButton.click();
  await expect(page.locator("#mobile-menu")).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.locator("#mobile-menu")).toBeHidden();
});

test("the skip link shows above the header when a keyboard reaches it", async ({ page }) => {
  await page.goto("/");
  // The app is running: it has replaced the pre-rendered page (which shows Login too).
  await expect(page.locator("html[data-live]")).toBeAttached();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  const box = (await skip.boundingBox())!;
  // What a person sees at the link's centre is the link itself, not the header over it.
  const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent, {
    x: box.x + box.width / 2,
    y: box.y + box.height / 2,
  });
  expect(onTop).toBe("Skip to content");
});

test("a product card opens its part page from anywhere on it, not only from Order now", async ({
  page,
}) => {
  await page.goto("/allproducts");
  // The app is running: it has replaced the pre-rendered page (which shows Login too).
  await expect(page.locator("html[data-live]")).toBeAttached();
  const name = (await page.getByRole("article").first().getByRole("heading").textContent())!;
  // That part's card from here on: other tests add parts meanwhile, and the newest comes first.
  const card = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
  // A person clicks where they see the picture, then the name (the link lies over both).
  const clickOn = async (target: Locator) => {
    // The vehicle selector above the list may put it below the first screen. The list may be
    // drawn again meanwhile (its products read afresh after another test changed the catalog),
    // which detaches the element found: it is then found again.
    let box: { x: number; y: number; width: number; height: number } | null = null;
    await expect(async () => {
      await target.scrollIntoViewIfNeeded({ timeout: 2_000 });
      box = await target.boundingBox();
      expect(box).not.toBeNull();
    }).toPass({ timeout: 15_000 });
    const { x, y, width, height } = box!;
    await page.mouse.click(x + width / 2, y + height / 2);
  };
  await clickOn(card.getByRole("img", { name }));
  // A visitor's card opens the part's public page (the ordering page is behind sign-in).
  await expect(page).toHaveURL(/\/parts\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await page.goto("/allproducts");
  const heading = card.getByRole("heading");
  await expect(heading).toHaveText(name);
  await clickOn(heading);
  await expect(page).toHaveURL(/\/parts\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
});
