import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

// All products' attribute filters (facets) with the demo attributes: on a desktop beside the
// list, on a phone in the Filters drawer. Other tests add products meanwhile: each check names
// the demo products it expects, and compares counts only with what the page itself shows.

/** The count a facet's checkbox shows, e.g. 3 for "Oil (3)". */
async function countOf(checkbox: Locator): Promise<number> {
  const name = (await checkbox.evaluate((el) => el.closest("label")!.textContent)) ?? "";
  return Number(/\((\d[\d,]*)\)$/.exec(name)![1]!.replaceAll(",", ""));
}

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test("a category's facets sit beside the list; a ticked value narrows it, Back undoes it", async ({
    page,
  }) => {
    await page.goto("/allproducts");
    const cards = page.getByRole("article");
    // No category, no facets.
    await expect(page.getByRole("complementary", { name: "Attributes" })).toHaveCount(0);
    await page
      .getByRole("navigation", { name: "Categories" })
      .getByRole("link", { name: "Filters", exact: true })
      .click();
    await expect(page).toHaveURL(/category=Filters/);
    await expect(cards.filter({ hasText: "Panel Engine Air Filter" })).toHaveCount(1);

    const sidebar = page.getByRole("complementary", { name: "Attributes" });
    const filterType = sidebar.getByRole("group", { name: "Filter type" });
    await expect(sidebar.getByRole("group", { name: "Height (mm)" })).toBeVisible();
    const oil = filterType.getByRole("checkbox", { name: /^Oil \(\d+\)$/ });
    const air = filterType.getByRole("checkbox", { name: /^Air \(\d+\)$/ });
    const airBefore = await countOf(air);
    const oilCount = await countOf(oil);
    await oil.check();

    await expect(page).toHaveURL(/attr=/);
    await expect(oil).toBeChecked();
    await expect(cards.filter({ hasText: "Panel Engine Air Filter" })).toHaveCount(0);
    await expect(cards.filter({ hasText: "Spin-On Engine Oil Filter" })).toHaveCount(1);
    await expect(cards).toHaveCount(oilCount);
    await expect(page.getByText(/^\d+ parts? in Filters$/)).toHaveText(
      `${oilCount} ${oilCount === 1 ? "part" : "parts"} in Filters`,
    );
    // The ticked value's siblings keep their counts (a second value would widen the list).
    await expect(air).not.toBeChecked();
    expect(await countOf(air)).toBe(airBefore);

    // Back: the value is unticked and the list whole again.
    await page.goBack();
    await expect(page).not.toHaveURL(/attr=/);
    await expect(oil).not.toBeChecked();
    await expect(cards.filter({ hasText: "Panel Engine Air Filter" })).toHaveCount(1);

    // Clear filters removes the category and its attribute filters together.
    await oil.check();
    await expect(page).toHaveURL(/attr=/);
    await page.getByRole("link", { name: "Clear filters" }).first().click();
    await expect(page).not.toHaveURL(/attr=|category=/);
    await expect(sidebar).toHaveCount(0);
  });

  test("while a category's facets load, their column is held: the list does not move when they come", async ({
    page,
  }) => {
    // The facets' answer waits until the list is on the page.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/products/facets?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/allproducts?category=Filters");
    const sidebar = page.getByRole("complementary", { name: "Attributes" });
    const card = page.getByRole("article").filter({ hasText: "Panel Engine Air Filter" });
    // Measured once the app has the page (the pre-rendered one is replaced then, card and all).
    await expect(page.locator("html[data-live]")).toBeAttached();
    await expect(card).toBeVisible();
    await expect(sidebar).toHaveAttribute("aria-busy", "true");
    const before = (await card.boundingBox())!.x;

    release();
    await expect(sidebar.getByRole("group", { name: "Height (mm)" })).toBeVisible();
    await expect(sidebar).toHaveAttribute("aria-busy", "false");
    expect((await card.boundingBox())!.x).toBe(before);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the facets are in the Filters drawer, and counted on its button", async ({ page }) => {
    await page.goto("/allproducts");
    const cards = page.getByRole("article");
    const filters = page.getByRole("button", { name: /^Filters/ });
    await filters.click();
    const drawer = page.getByRole("dialog", { name: "Filters" });
    await drawer
      .getByRole("navigation", { name: "Categories" })
      .getByRole("link", { name: "Suspension" })
      .click();
    await expect(page).toHaveURL(/category=Suspension/);

    const rear = drawer
      .getByRole("group", { name: "Axle" })
      .getByRole("checkbox", { name: /^Rear \(\d+\)$/ });
    const rearCount = await countOf(rear);
    await rear.check();
    await expect(page).toHaveURL(/attr=/);
    const show = drawer.getByRole("button", {
      name: `Show ${rearCount} ${rearCount === 1 ? "part" : "parts"}`,
    });
    await show.click();
    await expect(drawer).toBeHidden();

    await expect(filters).toHaveText("Filters (2)");
    await expect(cards.filter({ hasText: "Twin-Tube Gas Shock Absorber" })).toHaveCount(1);
    await expect(cards.filter({ hasText: "Front Wheel Bearing & Hub Assembly" })).toHaveCount(0);
    await expect(cards).toHaveCount(rearCount);
    // The facets are only in the drawer on a phone.
    await expect(page.getByRole("group", { name: "Axle" })).toBeHidden();

    // Unticked in the drawer: the count on the button goes down again.
    await filters.click();
    await drawer.getByRole("checkbox", { name: /^Rear \(\d+\)$/ }).uncheck();
    await expect(page).not.toHaveURL(/attr=/);
    await drawer.getByRole("button", { name: /^Show \d+ parts?$/ }).click();
    await expect(filters).toHaveText("Filters (1)");
    await expect(cards.filter({ hasText: "Front Wheel Bearing & Hub Assembly" })).toHaveCount(1);
  });
});
