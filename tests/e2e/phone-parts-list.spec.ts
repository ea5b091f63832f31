import { expect, test } from "./fixtures";

// The parts list on a 390 px phone: the results come first, the filters (vehicle, category,
// price, stock) wait in a drawer behind "Filters (n)". Other tests add products meanwhile: each
// check names the demo products it expects, and counts only what the page itself shows.

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

test("on a phone the first result is on the first screen, the filters in a drawer", async ({
  page,
}) => {
  await page.goto("/allproducts?q=brake%20pads");
  const cards = page.getByRole("article");
  await expect(
    cards.filter({ hasText: "Ventilated Brake Disc & Caliper Kit" }).getByTestId("part-number"),
  ).toHaveText("PW-BK-3001");
  const first = (await cards.first().boundingBox())!;
  expect(first.y + first.height).toBeLessThanOrEqual(PHONE.height);
  await expect(page.getByText(/^\d+ parts? matching “brake pads”$/)).toBeInViewport();
  await expect(page.getByRole("searchbox", { name: "Search parts" })).toBeInViewport();
  // The filters are not on the page until asked for.
  await expect(page.getByTestId("vehicle-selector")).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Categories" })).toBeHidden();
  await expect(page.getByRole("checkbox", { name: "In stock only" })).toBeHidden();

  // A wider search, then a category chosen in the drawer narrows it.
  await page.getByRole("searchbox", { name: "Search parts" }).fill("kit");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/q=kit/);
  await expect(cards.filter({ hasText: "Three-Piece Clutch Kit" })).toHaveCount(1);
  await expect(cards.filter({ hasText: "Ventilated Brake Disc & Caliper Kit" })).toHaveCount(1);

  const filters = page.getByRole("button", { name: /^Filters/ });
  await expect(filters).toHaveText("Filters");
  await filters.click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("vehicle-selector").getByLabel("Year")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(filters).toBeFocused();

  await filters.click();
  await drawer
    .getByRole("navigation", { name: "Categories" })
    .getByRole("link", { name: "Brakes" })
    .click();
  await expect(page).toHaveURL(/category=Brakes/);
  // The drawer stays open for more filters; its button tells what the list now holds.
  const show = drawer.getByRole("button", { name: /^Show \d+ parts?$/ });
  await expect(drawer.getByRole("link", { name: "Brakes" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await show.click();
  await expect(drawer).toBeHidden();
  await expect(filters).toHaveText("Filters (1)");
  await expect(cards.filter({ hasText: "Three-Piece Clutch Kit" })).toHaveCount(0);
  await expect(cards.filter({ hasText: "Ventilated Brake Disc & Caliper Kit" })).toHaveCount(1);
  const shown = await cards.count();
  await expect(page.getByText(/matching “kit” in Brakes$/)).toHaveText(
    `${shown} ${shown === 1 ? "part" : "parts"} matching “kit” in Brakes`,
  );
  await expect(page.getByText(/matching “kit” in Brakes$/)).toBeInViewport();
});

test("on a phone the vehicle is chosen in the drawer and shows as a chip that removes it", async ({
  page,
}) => {
  await page.goto("/allproducts?inStock=true");
  const filters = page.getByRole("button", { name: /^Filters/ });
  await expect(filters).toHaveText("Filters (1)");
  await filters.click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  const selector = drawer.getByTestId("vehicle-selector");
  await selector.getByLabel("Year").selectOption("2016");
  await selector.getByLabel("Make").selectOption({ label: "Volkswagen" });
  await selector.getByLabel("Model").selectOption({ label: "Golf" });
  await selector.getByRole("button", { name: "Show parts that fit" }).click();

  // Choosing the vehicle shows its parts: the drawer closes.
  await expect(drawer).toBeHidden();
  const label = "2016 Volkswagen Golf";
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parts that fit your ${label}`);
  await expect(filters).toHaveText("Filters (2)");
  const chip = page.getByRole("button", { name: `${label}: remove this vehicle` });
  await expect(chip).toBeInViewport();
  await expect(page.getByRole("article").first().getByTestId("fit")).toContainText(
    `Fits your ${label}`,
  );

  await chip.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All products");
  await expect(chip).toHaveCount(0);
  await expect(filters).toHaveText("Filters (1)");
  await expect(page).toHaveURL(/\/allproducts\?inStock=true$/);
});
