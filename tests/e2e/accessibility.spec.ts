import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  demoAdmin,
  saveAddressThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

// axe-core's WCAG 2.2 AA rules on every page, at phone and desktop width, signed out, as a
// customer and as an admin, with the dialogs and menus open: no violations, and no page wider
// than the screen and no table scrolling sideways (WCAG's reflow: nothing makes the reader scroll
// sideways).

const WCAG_AA = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22a",
  "wcag22aa",
  "best-practice",
];
const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

async function expectNoViolations(page: Page, where: string) {
  // The page has settled: nothing loading, no toast or transition half-way.
  await expect(page.getByRole("progressbar", { name: "Loading" })).toHaveCount(0);
  await expect(page.locator(".loading")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(found, `axe violations on ${where}`).toEqual([]);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${where} is wider than the screen by ${overflow} px`).toBeLessThanOrEqual(0);
  // Nor does a table hide columns behind a sideways scroll (Manage All Products once did).
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll("table")]
      .map((t) => t.parentElement!)
      .filter((box) => box.scrollWidth > box.clientWidth)
      .map((box) => box.querySelector("table")!.getAttribute("aria-label")),
  );
  expect(clipped, `${where}: tables that scroll sideways`).toEqual([]);
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
}

for (const size of sizes) {
  test.describe(`${size.name} (${size.width} px)`, () => {
    test("signed out: every public page, the phone menu open", async ({ page }) => {
      // Eight pages, each analysed by axe: more than the usual minute on a busy machine.
      test.setTimeout(150_000);
      await page.setViewportSize(size);
      for (const path of [
        "/",
        "/allproducts",
        "/blogs",
        "/review",
        "/myprotfolio",
        "/login",
        "/signup",
        "/no/such/page",
      ]) {
        await visit(page, path);
        await expectNoViolations(page, path);
      }
      if (size.name === "phone") {
        await page.getByRole("button", { name: "Open menu" }).click();
        await expectNoViolations(page, "the phone menu");
      }
    });

    test("signed out: the account recovery pages", async ({ page }) => {
      await page.setViewportSize(size);
      for (const path of [
        "/forgot-password",
        "/reset-password?token=not-a-real-one",
        "/email-verified",
        "/email-verified?error=INVALID_TOKEN",
      ]) {
        await visit(page, path);
        await expectNoViolations(page, path);
      }
    });

    test("a customer: product page and order dialog, dashboard pages", async ({ page }) => {
      await signUpThroughApi(page);
      await page.setViewportSize(size);
      const [product] = (await (await page.request.get("/api/products?limit=1")).json()) as {
        _id: string;
        minimumOrder: number;
      }[];
      await visit(page, `/products/${product!._id}`);
      await expectNoViolations(page, "the product page");
      const quantity = page.getByRole("spinbutton", { name: "Quantity" });
      await quantity.fill(String(product!.minimumOrder));
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoViolations(page, "the order dialog");
      await page.keyboard.press("Escape");
      for (const path of [
        "/dashboard",
        "/dashboard/myitems",
        "/dashboard/reviews",
        "/dashboard/warranty",
      ]) {
        await visit(page, path);
        await expectNoViolations(page, path);
      }
    });

    test("an admin: every admin page, the edit dialog open", async ({ page }) => {
      // Six pages and a dialog, each analysed by axe: more than the usual minute on a busy
      // machine (CI once took longer at desktop width).
      test.setTimeout(150_000);
      await signInThroughApi(page, demoAdmin);
      await page.setViewportSize(size);
      for (const path of [
        "/dashboard/allusers",
        "/dashboard/addProduct",
        "/dashboard/manageallorders",
        "/dashboard/attributes",
        "/dashboard/warranty",
        "/dashboard/manageallproducts",
      ]) {
        await visit(page, path);
        await expectNoViolations(page, path);
      }
      await page
        .getByRole("button", { name: /^Edit / })
        .first()
        .click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoViolations(page, "the edit product dialog");
    });
  });
}

/** Whether the focused element shows that it has focus (an outline or a ring). */
const focusShows = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    // Chrome's own ring (outline-style auto) is drawn in two tones, visible on any background.
    const outline =
      style.outlineStyle === "auto" ||
      (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2);
    return outline || style.boxShadow !== "none";
  });

/** Presses Tab until `name` has focus (at most 60 times), checking focus shows on the way. */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "";
    });
    expect(await focusShows(page), `focus shows on “${focused}”`).toBe(true);
    if (focused === name) return;
  }
  throw new Error(`Tab never reached “${name}”`);
}

test("a customer orders with the keyboard alone, and always sees where the focus is", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const [product] = (await (await page.request.get("/api/products?q=clutch")).json()) as {
    _id: string;
    minimumOrder: number;
  }[];
  await visit(page, `/products/${product!._id}`);
  await tabTo(page, "Quantity");
  await page.keyboard.type(String(product!.minimumOrder));
  await tabTo(page, "Place Order");
  await page.keyboard.press("Enter");
  // The dialog starts on the first thing to choose, where it goes (the saved address, chosen),
  // not on the read-only name.
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("radio")).toBeFocused();
  expect(await focusShows(page)).toBe(true);
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  await tabTo(page, "Confirm order");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Your Oder has been placed").first()).toBeVisible();
});

test("the focused rating shows a ring around the stars, not clipped by their shape", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await visit(page, "/dashboard/reviews");
  await tabTo(page, "1 star");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: "2 stars" })).toBeFocused();
  const ring = await page
    .getByTestId("rating-stars")
    .evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth]);
  expect(ring).toEqual(["solid", "2px"]);
});
