import type { Locator, Page } from "@playwright/test";
import {
  demoAdmin,
  newCustomer,
  orderAndPay,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

// The admin lists on a 390 px phone: every row is a card whose actions are on screen (not off to
// the side of a table), and they work. Only records created here are changed.

const PHONE = { width: 390, height: 844 };

/** The control is within the screen's width (nothing to scroll sideways to) and not covered. */
async function expectReachable(control: Locator) {
  await control.scrollIntoViewIfNeeded();
  await expect(control).toBeInViewport({ ratio: 1 });
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

async function adminOnPhone(page: Page) {
  await signInThroughApi(page, demoAdmin);
  await page.setViewportSize(PHONE);
}

test("on a phone, All Users shows each user as a card with Make Admin and Remove User at hand", async ({
  page,
  browser,
  baseURL,
}) => {
  const customerContext = await browser.newContext({ baseURL });
  const promoted = await signUpThroughApi(await customerContext.newPage(), newCustomer());
  const removed = await signUpThroughApi(await customerContext.newPage(), newCustomer());
  await customerContext.close();

  await adminOnPhone(page);
  await page.goto("/dashboard/allusers");
  // The dashboard menu is one row of tabs: the page's heading is near the top.
  const heading = page.getByRole("heading", { level: 1, name: "All Users" });
  expect((await heading.boundingBox())!.y).toBeLessThan(250);

  const search = async (email: string) => {
    await page.getByRole("searchbox", { name: "Search users" }).fill(email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText(`matching “${email}”`)).toBeVisible();
    return page.getByTestId("user-row").filter({ hasText: email });
  };
  let card = await search(promoted.email);
  const makeAdmin = card.getByRole("button", { name: "Make Admin" });
  await expectReachable(makeAdmin);
  await makeAdmin.click();
  await page
    .getByRole("dialog", { name: `Make ${promoted.name} an admin?` })
    .getByRole("button", { name: "Make Admin" })
    .click();
  await expect(page.getByText(`${promoted.name} is now an admin`)).toBeVisible();
  await expect(card.getByText("admin", { exact: true })).toBeVisible();

  card = await search(removed.email);
  const remove = card.getByRole("button", { name: "Remove User" });
  await expectReachable(remove);
  await remove.click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove User" }).click();
  await expect(page.getByText(`No users match “${removed.email}”.`)).toBeVisible();
});

test("on a phone, Manage All Products shows cards with a picture of its size, Edit and Delete", async ({
  page,
}) => {
  await adminOnPhone(page);
  await page.goto("/dashboard/manageallproducts");
  const card = page.getByRole("table", { name: "Products" }).locator("tbody tr").first();
  await expect(card).toBeVisible();
  const picture = (await card.locator("img").boundingBox())!;
  expect(picture.width).toBeGreaterThanOrEqual(40); // not squashed into a line
  expect(picture.height).toBeGreaterThanOrEqual(30);
  // The row header holds the name with the part number under it.
  const title = card.locator("th");
  const partNumber = (await title.getByTestId("part-number").textContent())!;
  const name = (await title.textContent())!.replace(partNumber, "");
  await expectReachable(card.getByRole("button", { name: `Delete ${name}` }));
  const edit = card.getByRole("button", { name: `Edit ${name}` });
  await expectReachable(edit);
  await edit.click();
  await expect(page.getByRole("dialog", { name: `Edit ${name}` })).toBeVisible();
});

test("on a phone, Manage All orders shows each order as a card and Mark shipped works", async ({
  page,
  browser,
  baseURL,
}) => {
  // A customer orders and pays (through the API, as the browser would).
  const customerContext = await browser.newContext({ baseURL });
  const customerPage = await customerContext.newPage();
  const customer = await signUpThroughApi(customerPage, newCustomer());
  await orderAndPay(customerPage, "clutch");
  await customerContext.close();

  await adminOnPhone(page);
  await page.goto(`/dashboard/manageallorders?q=${encodeURIComponent(customer.email)}`);
  // The search is in the URL, like the other lists.
  await expect(page.getByRole("searchbox", { name: "Search orders" })).toHaveValue(customer.email);
  const card = page.getByTestId("admin-order").filter({ hasText: customer.email });
  await expect(card.getByText("Paid")).toBeVisible();
  const ship = card.getByRole("button", { name: "Mark shipped" });
  await expectReachable(ship);
  await ship.click();
  const confirm = page.getByRole("dialog").getByRole("button", { name: "Mark shipped" });
  // A step forward, not a danger: the confirmation is not styled as one.
  await expect(confirm).not.toHaveClass(/btn-error/);
  await confirm.click();
  await expect(card.getByTestId("order-status")).toHaveText("Shipped");

  // The status filter is kept in the URL too.
  await page.getByLabel("Status").selectOption("shipped");
  await expect(page).toHaveURL(/status=shipped/);
  await page.reload();
  await expect(page.getByLabel("Status")).toHaveValue("shipped");
  await expect(card.getByText("Shipped")).toBeVisible();
});
