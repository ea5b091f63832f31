import type { Page } from "@playwright/test";
import { partSlug } from "../../src/contract/paths";
import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// Honest availability (docs/inventory.md "What buyers see"): a part with nothing on the shelf
// takes backorders and a production run is expected on 12 January 2027; a visitor reads "Out of
// stock · on backorder, expected 12 Jan 2027" on its public part page and on its card, and once
// the admin counts 5 at the Main warehouse, a signed-in buyer's ordering page says where they
// ship from and when more come. The part is made for the test: others share the demo stock.

/** The answer's body, once its status is as expected (the body is said when not). */
async function ok<T>(res: Awaited<ReturnType<Page["request"]["post"]>>, status = 200): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

test("a visitor sees a part out of stock on backorder with its date; a buyer where it ships from", async ({
  page,
  browser,
  baseURL,
}) => {
  const id = `${Date.now() % 100000}${process.pid % 100}`;
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const name = `Brake caliper ${id}`;
  const partNumber = `PW-AV-${id}`;
  const { product } = await ok<{ product: { _id: string } }>(
    await admin.request.post("/api/products", {
      data: {
        name,
        partNumber,
        category: "Brakes",
        price: 120,
        minimumOrder: 1,
        availableQuantity: 1,
        warranty: 24,
        shortDescription: "Made for the availability test",
        img: "/images/products/timing-belt-kit.svg",
      },
    }),
    201,
  );
  const locations = await ok<{ id: string; isHome: boolean }[]>(
    await admin.request.get("/api/locations"),
  );
  const home = locations.find((l) => l.isHome)!;
  // Counted out: nothing on the shelf.
  await ok(
    await admin.request.put(`/api/locations/${home.id}/stock/${product._id}`, {
      data: { onHand: 0, reorderLevel: null },
    }),
  );
  await ok(
    await admin.request.put(`/api/locations/stock/${product._id}/backorders`, {
      data: { takes: true, leadDays: null },
    }),
  );
  await ok(
    await admin.request.post("/api/incoming-supply", {
      data: {
        kind: "production",
        reference: `RUN-AV-${id}`,
        productId: product._id,
        locationId: home.id,
        qty: 20,
        expectedOn: "2027-01-12",
      },
    }),
    201,
  );

  // A visitor (no session) opens the part's public page.
  const slug = partSlug(partNumber, name);
  await page.goto(`/parts/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByTestId("availability")).toHaveText(
    "Out of stock · on backorder, expected 12 Jan 2027",
  );
  // Its card in a search says the same, never where or how many.
  await page.goto(`/allproducts?q=${partNumber}`);
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByTestId("availability")).toHaveText(
    "Out of stock · on backorder, expected 12 Jan 2027",
  );

  // 5 counted at the Main warehouse: the buyer's ordering page says where they ship from.
  await ok(
    await admin.request.put(`/api/locations/${home.id}/stock/${product._id}`, {
      data: { onHand: 5, reorderLevel: null },
    }),
  );
  await signUpThroughApi(page);
  await page.goto(`/products/${product._id}`);
  await expect(page.getByTestId("availability")).toHaveText(
    "5 ship today from Main warehouse · 20 more on 12 Jan 2027",
  );
  await adminContext.close();
});
