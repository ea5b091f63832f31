import type { Page } from "@playwright/test";
import { paths } from "../../src/contract/paths";
import { formatDimensions, formatWeight, productMessages } from "../../src/contract/products";
import {
  demoAdmin,
  E2E_SHIP_TO,
  newCustomer,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

let n = 0;
function uniqueName(what: string) {
  n += 1;
  return `${what} ${Date.now()}-${process.pid}-${n}`;
}
function uniquePartNumber() {
  n += 1;
  return `PW-T-${Date.now()}-${process.pid}-${n}`;
}

/** A valid 1x1 PNG. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

interface NewProduct {
  name: string;
  price: string;
  warranty: string;
  minimumOrder: string;
  availableQuantity: string;
  description: string;
}

async function fillProductForm(page: Page, p: NewProduct, partNumber = uniquePartNumber()) {
  await page.getByLabel("Name").fill(p.name);
  await page.getByLabel("Part number").fill(partNumber);
  await page.getByLabel("Category").selectOption("Brakes");
  await page.getByLabel("Price").fill(p.price);
  await page.getByLabel("Warranty (months)").fill(p.warranty);
  await page.getByLabel("Minimum order").fill(p.minimumOrder);
  await page.getByLabel("Available quantity").fill(p.availableQuantity);
  await page.getByLabel("Short description").fill(p.description);
}

async function openAddProduct(page: Page) {
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard/addProduct");
  await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
  await expect(page).toHaveTitle(/Add Product/);
}

/** Adds a product through the API in the signed-in admin's session; answers its id. */
async function createProduct(page: Page, name: string): Promise<string> {
  const res = await page.request.post("/api/products", {
    data: {
      name,
      partNumber: uniquePartNumber(),
      category: "Engine",
      price: 55,
      minimumOrder: 2,
      availableQuantity: 30,
      warranty: 12,
      shortDescription: "Made for this test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { product: { _id: string } }).product._id;
}

/** The product's row in Manage All Products, found by searching its name. */
async function manageRow(page: Page, name: string) {
  await page.goto("/dashboard/manageallproducts");
  await expect(page.getByRole("heading", { name: "Manage All Products" })).toBeVisible();
  await page.getByLabel("Search products").fill(name);
  await page.getByRole("button", { name: "Search" }).click();
  return page.getByRole("table", { name: "Products" }).getByRole("row").filter({ hasText: name });
}

test("the admin adds a product with an uploaded picture and it appears in /allproducts", async ({
  page,
}) => {
  await openAddProduct(page);
  const name = uniqueName("Ceramic brake pads");
  const partNumber = uniquePartNumber();
  await fillProductForm(
    page,
    {
      name,
      price: "42.50",
      warranty: "18",
      minimumOrder: "2",
      availableQuantity: "30",
      description: "Low-dust front pads for city cars",
    },
    partNumber,
  );
  // One number it replaces: found by it afterwards.
  await page.getByRole("button", { name: "Add a number" }).click();
  await page.getByLabel("Kind of number 1").selectOption("OE");
  await page.getByLabel("Brand of number 1").fill("Honda");
  const oe = `45022-${Date.now()}`;
  await page.getByLabel("Number 1", { exact: true }).fill(oe);
  await page.getByLabel("Or upload an image").setInputFiles({
    name: "pads.png",
    mimeType: "image/png",
    buffer: png,
  });
  await expect(page.getByLabel("Image link")).toHaveValue(/^\/uploads\/[0-9a-f-]{36}\.png$/);
  await expect(page.getByRole("img", { name: "Image preview" })).toBeVisible();
  await page.getByRole("button", { name: "Add Product" }).click();

  await expect(page.getByText(productMessages.added)).toBeVisible();
  // The form is ready for the next product.
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Image link")).toHaveValue("");

  await page.goto(`/allproducts?q=${encodeURIComponent(name)}`);
  const card = page.getByRole("article").filter({
    has: page.getByRole("heading", { name, exact: true }),
  });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("part-number")).toHaveText(partNumber);
  await expect(card).toContainText("$42.50");
  await expect(card).toContainText("18 months");
  const picture = card.getByRole("img", { name });
  await expect(picture).toHaveAttribute("src", /^\/uploads\//);
  // The uploaded picture really loads (a broken one has no natural width).
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  // Its OE number, typed without the dash, finds it and says why.
  await page.goto(`/allproducts?q=${encodeURIComponent(oe.replace("-", ""))}`);
  await expect(page.getByRole("article").first().getByTestId("search-match")).toHaveText(
    `matches OE ${oe} (Honda)`,
  );

  const [created] = (await (
    await page.request.get(`/api/products?q=${encodeURIComponent(name)}`)
  ).json()) as { _id: string }[];
  expect((await page.request.delete(`/api/products/${created!._id}`)).ok()).toBe(true);
});

test("the admin replenishes a product's stock in Manage All Products, then deletes it", async ({
  page,
}) => {
  await signInThroughApi(page, demoAdmin);
  const name = uniqueName("Wheel bearing");
  await createProduct(page, name);

  const row = await manageRow(page, name);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("part-number")).toHaveText(/^PW-T-/);
  await expect(row.getByTestId("stock")).toHaveText("30");
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit).toBeVisible();
  await edit.getByLabel("Available quantity").fill("750");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByTestId("stock")).toHaveText("750");
  await expect(row.getByTestId("minimum-order")).toHaveText("2");

  // Delete it, after the confirmation.
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Are you sure?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(`No products match “${name}”.`)).toBeVisible();

  await page.goto(`/allproducts?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No parts match “${name}”.`)).toBeVisible();
});

test("the admin sets a product's shipping weight in its edit form", async ({ page }) => {
  await signInThroughApi(page, demoAdmin);
  const name = uniqueName("Brake drum");
  await createProduct(page, name);
  const row = await manageRow(page, name);
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  // Added without a weight: 0 g, which weight-band shipping charges nothing for.
  await expect(edit.getByLabel("Weight (g)")).toHaveValue("0");
  await edit.getByLabel("Weight (g)").fill("4200");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  await expect(edit.getByLabel("Weight (g)")).toHaveValue("4200");
  await edit.getByRole("button", { name: "Cancel" }).click();
  const [created] = (await (
    await page.request.get(`/api/products?q=${encodeURIComponent(name)}`)
  ).json()) as { _id: string }[];
  expect((await page.request.delete(`/api/products/${created!._id}`)).ok()).toBe(true);
});

test("the admin adds a product with its weight and dimensions, and its page shows them", async ({
  page,
}) => {
  await openAddProduct(page);
  const name = uniqueName("Brake disc kit");
  await fillProductForm(page, {
    name,
    price: "129.00",
    warranty: "24",
    minimumOrder: "1",
    availableQuantity: "12",
    description: "Two vented front discs with pads",
  });
  await page.getByLabel("Weight (g, optional)").fill("1200");
  await page.getByLabel("Length (mm)").fill("300");
  await page.getByLabel("Width (mm)").fill("200");
  await page.getByLabel("Height (mm)").fill("100");
  await page.getByLabel("Image link").fill("/images/products/brake-disc-kit.svg");
  await page.getByRole("button", { name: "Add Product" }).click();
  await expect(page.getByText(productMessages.added)).toBeVisible();

  const [created] = (await (
    await page.request.get(`/api/products?q=${encodeURIComponent(name)}`)
  ).json()) as { _id: string }[];
  await page.goto(paths.product.to(created!._id));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("Weight", { exact: true })).toBeVisible();
  await expect(page.getByTestId("weight")).toHaveText(formatWeight(1200));
  await expect(page.getByText("Dimensions", { exact: true })).toBeVisible();
  await expect(page.getByTestId("dimensions")).toHaveText(
    formatDimensions({ lengthMm: 300, widthMm: 200, heightMm: 100 }),
  );
  expect(formatDimensions({ lengthMm: 300, widthMm: 200, heightMm: 100 })).toBe(
    "300 × 200 × 100 mm",
  );
  expect((await page.request.delete(`/api/products/${created!._id}`)).ok()).toBe(true);
});

test("submitting the empty add form shows a message beside every field and sends nothing", async ({
  page,
}) => {
  await openAddProduct(page);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/api/products")) posts.push(r.url());
  });
  await page.getByRole("button", { name: "Add Product" }).click();
  for (const message of [
    "Part number is Required",
    "Choose a category",
    "Name is Required",
    "Price is Required",
    "Warranty is Required",
    "Minimum order is Required",
    "Available quantity is Required",
    "Description is Required",
    "Image link is Required",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");

  // The numbers and the link are checked too, beside their fields.
  await fillProductForm(page, {
    name: uniqueName("Never stored"),
    price: "1.234",
    warranty: "12",
    minimumOrder: "20",
    availableQuantity: "10",
    description: "A part",
  });
  await page.getByLabel("Image link").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Add Product" }).click();
  await expect(page.getByText("Use at most 2 decimals")).toBeVisible();
  await expect(page.getByText("Minimum order cannot exceed the available quantity")).toBeVisible();
  await expect(page.getByText("Use an http(s) link or upload an image")).toBeVisible();
  expect(posts).toEqual([]);
  await expect(page.getByText(productMessages.added)).toHaveCount(0);
});

test("when the product cannot be added, the failure message shows in red and as a toast", async ({
  page,
}) => {
  await openAddProduct(page);
  const name = uniqueName("Never stored");
  await fillProductForm(page, {
    name,
    price: "10",
    warranty: "6",
    minimumOrder: "1",
    availableQuantity: "5",
    description: "A part that is never added",
  });
  await page.getByLabel("Image link").fill("/images/products/oil-filter.svg");
  // The session ends while the form is open (signed out elsewhere): the server refuses.
  await page.context().clearCookies();
  await page.getByRole("button", { name: "Add Product" }).click();

  const inline = page.getByRole("alert").filter({ hasText: productMessages.failed });
  await expect(inline).toBeVisible();
  await expect(inline).toHaveClass(/text-error/);
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: productMessages.failed }),
  ).toBeVisible();
  await expect(page.getByText(productMessages.added)).toHaveCount(0);
  const found = await page.request.get(`/api/products?q=${encodeURIComponent(name)}`);
  expect(await found.json()).toEqual([]);
});

test("a product with an unpaid order cannot be deleted, and the admin is told why", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signInThroughApi(page, demoAdmin);
  const name = uniqueName("Timing belt");
  const productId = await createProduct(page, name);

  // A customer, in a session of their own, orders it and does not pay.
  const customer = await playwright.request.newContext({ baseURL });
  const who = newCustomer();
  expect((await customer.post("/api/auth/sign-up/email", { data: who })).ok()).toBe(true);
  const placed = await customer.post("/api/orders", {
    data: {
      productId,
      orderQty: 2,
      phonrNo: "07700900123",
      Address: "12 Garage Lane",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(placed.status()).toBe(201);

  const row = await manageRow(page, name);
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Are you sure?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(confirm.getByRole("alert")).toHaveText(
    "This product has unpaid orders; wait until they are paid or cancelled",
  );
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);

  // Once the customer deletes the order, the product can go.
  const orderId: string = (await placed.json()).order._id;
  expect((await customer.delete(`/api/orders/${orderId}`)).ok()).toBe(true);
  await customer.dispose();
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(confirm.getByRole("alert")).toHaveCount(0);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});

test("a stock edit made while orders came in is refused, so no reservation is overwritten", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInThroughApi(page, demoAdmin);
  const name = uniqueName("Tie rod end");
  const id = await createProduct(page, name);
  const row = await manageRow(page, name);
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("Available quantity")).toHaveValue("30");

  // While the form is open, a customer orders 4.
  const customerContext = await browser.newContext({ baseURL });
  const customer = await customerContext.newPage();
  await signUpThroughApi(customer, newCustomer());
  const placed = await customer.request.post("/api/orders", {
    data: {
      productId: id,
      orderQty: 4,
      phonrNo: "07700900123",
      Address: "1 Dock Road",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(placed.status()).toBe(201);
  const orderId = ((await placed.json()) as { order: { _id: string } }).order._id;
  await customerContext.close();

  // The admin meant "+50" on the 30 they saw.
  await edit.getByLabel("Available quantity").fill("80");
  await edit.getByRole("button", { name: "Save changes" }).click();
  const message =
    "Orders changed the stock to 26 since you opened this form: check the number and save again";
  await expect(edit.getByText(message).first()).toBeVisible();
  const stock = await page.request.get(`/api/products/${id}`);
  expect(((await stock.json()) as { availableQuantity: number }).availableQuantity).toBe(26);

  // Leave the shared catalog as it was: cancel the order, delete the product.
  const cancelled = await page.request.patch(`/api/orders/${orderId}/status`, {
    data: { status: "cancelled" },
  });
  expect(cancelled.ok()).toBe(true);
  expect((await page.request.delete(`/api/products/${id}`)).ok()).toBe(true);
});

test("closing the edit dialog with unsaved edits asks first; a save closes it without asking", async ({
  page,
}) => {
  await signInThroughApi(page, demoAdmin);
  const name = uniqueName("Ball joint");
  const id = await createProduct(page, name);
  const row = await manageRow(page, name);
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await edit.getByLabel("Warranty (months)").fill("36");
  const question = page.getByRole("dialog", {
    name: "You have unsaved changes. Leave this page and lose them?",
  });
  await edit.getByRole("button", { name: "Cancel" }).click();
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await page.keyboard.press("Escape");
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel("Warranty (months)")).toHaveValue("36");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(question).toHaveCount(0); // the save did not ask
  expect((await page.request.delete(`/api/products/${id}`)).ok()).toBe(true);
});
