import type { Page } from "@playwright/test";
import { E2E_SHIP_TO, partOfItsOwn } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

/**
 * An admin sets the order limits on Manage All Orders, on a phone (docs/ordering.md "The order
 * limits"), and a new customer's next unpaid order says the new hold. Other tests run beside this
 * one on the same store: only a new customer's hold grows here (30 → 45 minutes; every other
 * figure saved as it was), so none of theirs is refused for it, and the limits in force before
 * are saved back at the end.
 */

const MINUTE = 60_000;

/** When My Items says the stock of the order of `part` is held until, as a time. */
async function heldUntil(page: Page, part: string): Promise<number> {
  await page.goto("/dashboard/myitems");
  const words = page
    .getByTestId("my-order")
    .filter({ hasText: part })
    .getByText(/^Stock held until /);
  await expect(words).toBeVisible();
  return Date.parse((await words.textContent())!.replace("Stock held until ", ""));
}

test("an admin gives new customers' orders a longer hold on a phone; a new customer's order says it", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  test.setTimeout(120_000);
  const before = await (await admin.request.get("/api/holds/limits")).json();
  const part = await partOfItsOwn(admin, { name: "Order limits gasket", minimumOrder: 1 });

  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto("/dashboard/manageallorders");
  const form = admin.getByRole("form", { name: "Order limits" });
  const newCustomers = form.getByLabel("A new customer's unpaid order holds it for (minutes)");
  await expect(newCustomers).toHaveValue(String(before.newCustomerHoldMinutes));
  try {
    // A figure out of range is refused beside its field; nothing is saved.
    await form.getByLabel("One order line may hold (% of the part's stock on sale)").fill("101");
    await form.getByRole("button", { name: "Save limits" }).click();
    await expect(
      form.getByText("One line's share of the stock is a whole percent from 1 to 100"),
    ).toBeVisible();
    await form
      .getByLabel("One order line may hold (% of the part's stock on sale)")
      .fill(String(before.maxSharePercent));

    await newCustomers.fill("45");
    await form.getByRole("button", { name: "Save limits" }).click();
    await expect(
      admin.getByText(
        `Order limits saved: unpaid orders hold stock ${before.holdHours} hours (a new customer's 45 minutes)`,
      ),
    ).toBeVisible();
    await expect(form.getByText("Not saved yet: these are the store's defaults.")).toHaveCount(0);
    await form.scrollIntoViewIfNeeded();
    await screenshot(admin, "order-limits-phone");

    // The new customer's order holds its part for 45 minutes, and My Items says until when.
    const orderedAt = Date.now();
    const placed = await page.request.post("/api/orders", {
      data: {
        productId: part._id,
        orderQty: 1,
        phonrNo: "07700900123",
        Address: "3 Depot Street",
        shipTo: E2E_SHIP_TO,
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const until = await heldUntil(page, part.name);
    // The page says the minute: within a minute either side of 45 minutes after the order.
    expect(until - orderedAt).toBeGreaterThan(44 * MINUTE - MINUTE);
    expect(until - orderedAt).toBeLessThan(45 * MINUTE + MINUTE);
    await screenshot(page, "my-items-held-until");
    // The admin sees it among the stock held in unpaid orders.
    await admin.reload();
    await expect(
      admin.getByTestId("account-holds").filter({ hasText: customer.email }),
    ).toBeVisible();
  } finally {
    await admin.request.put("/api/holds/limits", { data: { ...before, updatedAt: undefined } });
  }
});
