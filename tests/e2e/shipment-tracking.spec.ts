import { orderAndPay } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("an admin ships a paid order with UPS and a tracking number; the customer's order page links UPS's tracking page", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  const product = await orderAndPay(page, "headlight");
  const [order] = (await (await page.request.get("/api/orders")).json()) as { _id: string }[];

  await admin.goto(`/dashboard/manageallorders?q=${encodeURIComponent(customer.email)}`);
  const row = admin.getByTestId("admin-order").filter({ hasText: customer.email });
  // The page settled (its chart drawn, the paid order listed) before the row is acted on.
  await expect(admin.locator("canvas").first()).toBeVisible();
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Paid")).toBeVisible();
  await row.getByRole("button", { name: "Mark shipped" }).click();
  const dialog = admin.getByRole("dialog", { name: "Mark this order shipped?" });

  // A number without its carrier is refused before anything is sent; the order stays paid.
  await dialog.getByLabel("Tracking number").fill("1z 999aa1 0123456784");
  await dialog.getByRole("button", { name: "Mark shipped" }).click();
  await expect(
    dialog.getByText("Give both a carrier and a tracking number, or neither"),
  ).toBeVisible();
  await expect(row.getByText("Paid")).toBeVisible();

  await dialog.getByLabel("Carrier").selectOption({ label: "UPS" });
  await dialog.getByRole("button", { name: "Mark shipped" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("order-status")).toHaveText("Shipped");

  // The admin's order detail shows it too.
  await row.getByRole("link", { name: new RegExp(product.name) }).click();
  await expect(admin.getByTestId("shipment-tracking")).toHaveText(
    /^Shipped with UPS · tracking 1Z999AA10123456784/,
  );

  await page.goto(`/dashboard/orders/${order!._id}`);
  const tracking = page.getByTestId("shipment-tracking");
  await expect(tracking).toContainText("Shipped with UPS · tracking 1Z999AA10123456784");
  const link = tracking.getByRole("link", { name: /1Z999AA10123456784/ });
  await expect(link).toHaveAttribute(
    "href",
    "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  );
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener/);
});
