import { attributeMessages } from "../../src/contract/attributes";
import { partSlug } from "../../src/contract/paths";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin adds an attribute to a category on the Attributes page (on a phone), sets a part's
// value in the part's edit dialog, and a visitor sees it in the part page's Specifications.
// What the test made is removed again (other tests share the demo catalogue).

const PHONE = { width: 390, height: 844 };

test("an admin adds an attribute, sets a part's value on its edit page, and the part page shows it", async ({
  page,
  browser,
  baseURL,
}) => {
  const id = `${Date.now()}-${process.pid}`;
  const attribute = `Torque ${id}`;
  const name = `Wheel nut set ${id}`;
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/products", {
    data: {
      name,
      partNumber: `PW-AT-${id}`,
      category: "Other",
      price: 12,
      minimumOrder: 1,
      availableQuantity: 30,
      warranty: 12,
      shortDescription: "Made for this test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string; partNumber: string } };

  // The Attributes page, on a phone: the category's list and the add form, nothing off-screen.
  await page.setViewportSize(PHONE);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Attributes", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Attributes");
  await page.getByLabel("Category").selectOption("Other");
  await expect(page).toHaveURL(/[?&]category=Other/);
  const add = page.getByRole("form", { name: "Add an attribute" });
  await expect(add.getByRole("heading")).toHaveText("Add an attribute to Other");
  await add.getByLabel("Name").fill(attribute);
  await add.getByLabel("Kind").selectOption("number");
  await add.getByLabel("Unit (optional)").fill("Nm");
  await add.getByRole("button", { name: "Add attribute" }).click();
  await expect(page.getByText(attributeMessages.added(attribute))).toBeVisible();
  const row = page.getByTestId("attribute-row").filter({ hasText: attribute });
  await expect(row).toContainText("Number, Nm");
  // The same name again, in another case, is refused with the contract's words.
  await add.getByLabel("Name").fill(attribute.toUpperCase());
  await add.getByRole("button", { name: "Add attribute" }).click();
  await expect(add.getByRole("alert")).toHaveText(attributeMessages.taken(attribute, "Other"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

  // The part's edit dialog has an Attributes section with a field per attribute of its category.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/manageallproducts");
  await page.getByLabel("Search products").fill(name);
  await page.getByRole("button", { name: "Search" }).click();
  const productRow = page
    .getByRole("table", { name: "Products" })
    .getByRole("row")
    .filter({ hasText: name });
  await productRow.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  const values = edit.getByRole("form", { name: "Attributes" });
  const torque = values.getByLabel(attribute);
  await torque.fill("a lot");
  await values.getByRole("button", { name: "Save attributes" }).click();
  await expect(values.getByText(attributeMessages.notANumber(attribute))).toBeVisible();
  await torque.fill("120");
  await values.getByRole("button", { name: "Save attributes" }).click();
  await expect(page.getByText(attributeMessages.saved)).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();

  // A visitor's part page lists it under Specifications, with the store's brand.
  const visitor = await browser.newContext({ baseURL });
  try {
    const part = await visitor.newPage();
    await part.goto(`/parts/${partSlug(product.partNumber, name)}`);
    await expect(part.getByRole("heading", { name: "Specifications" })).toBeVisible();
    await expect(
      part.getByTestId("specifications").getByRole("row").filter({ hasText: attribute }),
    ).toHaveText(`${attribute}120 Nm`);
    await expect(part.getByTestId("brand")).toHaveText("PartsWorks");
  } finally {
    await visitor.close();
  }

  // Removing the attribute asks first, saying how many parts lose a value.
  await page.goto("/dashboard/attributes?category=Other");
  await row.getByRole("button", { name: `Remove ${attribute}` }).click();
  const confirm = page.getByRole("dialog", { name: attributeMessages.removeTitle(attribute) });
  await expect(confirm).toContainText(attributeMessages.removeParts(1));
  await confirm.getByRole("button", { name: "Remove attribute" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  expect((await page.request.delete(`/api/products/${product._id}`)).ok()).toBe(true);
});
