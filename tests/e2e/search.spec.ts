import { signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// A shopper finds parts by the words they use, by the number on the old part, and by category.
// Other tests add products meanwhile: each check names the demo product it expects.

test("searching by words, by an OE number with dashes, and browsing a category", async ({
  page,
}) => {
  // Signed in, as the product page asks.
  await signUpThroughApi(page);
  await page.goto("/");
  await page
    .getByRole("navigation")
    .getByRole("link", { name: "Parts", exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/allproducts$/);
  await expect(page.getByRole("heading", { level: 1, name: "All products" })).toBeVisible();
  const cards = page.getByRole("article");
  const search = page.getByRole("searchbox", { name: "Search parts" });

  // Words in any order, plurals: "brake pads" finds the brake kit (its description has pads).
  await search.fill("brake pads");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/q=brake\+pads/);
  await expect(
    cards.filter({ hasText: "Ventilated Brake Disc & Caliper Kit" }).getByTestId("part-number"),
  ).toHaveText("PW-BK-3001");

  // The number printed on the old part, with dashes: found first, and the card says why.
  await search.fill("04465-02220");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(cards.first().getByRole("heading")).toHaveText(
    "Ventilated Brake Disc & Caliper Kit",
  );
  await expect(cards.first().getByTestId("search-match")).toHaveText(
    "matches OE 04465-02220 (Toyota)",
  );

  // The product page lists the numbers it replaces.
  await cards
    .first()
    .getByRole("link", { name: "Ventilated Brake Disc & Caliper Kit", exact: true })
    .click();
  await expect(page.getByTestId("part-number")).toHaveText("PW-BK-3001");
  const refs = page.getByTestId("cross-references");
  await expect(refs.getByRole("row", { name: "OE Toyota 04465-02220" })).toBeVisible();
  await page.goBack();

  // A category link narrows the list and keeps it in the URL.
  await search.fill("");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page
    .getByRole("navigation", { name: "Categories" })
    .getByRole("link", { name: "Filters" })
    .click();
  await expect(page).toHaveURL(/category=Filters/);
  await expect(cards.filter({ hasText: "Spin-On Engine Oil Filter" })).toHaveCount(1);
  await expect(cards.filter({ hasText: "Panel Engine Air Filter" })).toHaveCount(1);
  await expect(cards.filter({ hasText: "Ventilated Brake Disc & Caliper Kit" })).toHaveCount(0);
  await expect(page.getByText(/^\d+ parts? in Filters$/)).toBeVisible();

  // With the category kept, a search inside it; then nothing found offers a way on.
  await search.fill("oil filters");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/category=Filters/);
  await expect(cards.first().getByRole("heading")).toHaveText("Spin-On Engine Oil Filter");

  await search.fill("radiatr hose");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const none = page.getByTestId("no-results");
  await expect(none).toContainText("No parts match “radiatr hose” in Filters.");
  await none.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/category=/);
  // Outside the category the misspelt word is forgiven.
  await expect(cards.first().getByRole("heading")).toHaveText("All-Aluminium Cooling Radiator");

  // Spelt too far off to match: "Did you mean" leads to the part.
  await search.fill("radaitor");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(none).toContainText("No parts match “radaitor”.");
  await none.getByRole("link", { name: "All-Aluminium Cooling Radiator" }).click();
  await expect(page).toHaveURL(/q=All-Aluminium/);
  await expect(cards.first().getByRole("heading")).toHaveText("All-Aluminium Cooling Radiator");
});
