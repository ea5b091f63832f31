import { orderAndPay } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { shipInBrowser } from "./returns-helpers";
import { screenshot } from "./screenshots";

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 768 },
] as const;

test("a return with an RMA number, received as damaged with a restocking fee; the Contact page gives the returns address", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  test.setTimeout(150_000);
  const shot = async (p: typeof page, name: string) => {
    for (const size of SIZES) {
      await p.setViewportSize(size);
      await screenshot(p, `${name}-${size.name}`);
    }
  };
  const product = await orderAndPay(page, "fuel");

  // The admin sets a 15% restocking fee on damaged and used parts, on the Returns page.
  await admin.goto("/dashboard/returns");
  const fee = admin.getByRole("form", { name: "Restocking fee" });
  await fee.getByLabel("Fee (percent of the refund; 0: none)").fill("15");
  await fee.getByLabel("Damaged").check();
  await fee.getByLabel("Used").check();
  await fee.getByRole("button", { name: "Save fee" }).click();
  await expect(admin.getByText("Restocking fee saved: 15%")).toBeVisible();

  // The admin ships the order.
  await shipInBrowser(admin, customer.email);

  // The customer returns one part, no longer needed, and sees its RMA number.
  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: product.name })
    .getByRole("link", { name: /^Details/ })
    .click();
  await page.getByRole("button", { name: "Return items" }).click();
  const form = page.getByRole("dialog", { name: "Return items" });
  await form.getByLabel(`Quantity to return: ${product.name}`).fill("1");
  await form.getByLabel("Reason").selectOption({ label: "No longer needed" });
  await expect(form.getByLabel("Reason")).toContainText("Defective / failed in use");
  await form.getByRole("button", { name: "Ask to return" }).click();
  await expect(form).toHaveCount(0);
  const myReturn = page.getByTestId("order-return");
  const rma = (await myReturn.getByTestId("return-rma").textContent())!;
  expect(rma).toMatch(/^RMA-\d{5,}$/);
  const orderUrl = page.url();

  // The admin approves; the customer is told where to send it, the Contact page says the address.
  await admin.goto("/dashboard/returns");
  const row = admin.getByTestId("admin-return").filter({ hasText: rma });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row.getByTestId("return-status")).toHaveText("Approved: send the parts back");
  await page.reload();
  await expect(myReturn).toContainText(`with ${rma} written on the parcel`);
  await page
    .getByRole("contentinfo")
    .getByRole("link", { name: "Address, returns and phone" })
    .click();
  await expect(page.getByRole("heading", { name: "Contact", exact: true })).toBeVisible();
  await expect(page.getByTestId("contact-details")).toContainText("Returns address");
  await expect(page.getByTestId("contact-details")).toContainText("PartsWorks Returns, Dock 4");
  await expect(page.getByTestId("contact-details")).toContainText("Opening hours");
  await shot(page, "contact");

  // The admin receives it as damaged: the dialog shows the fee and the refund before it is made.
  await row.getByRole("button", { name: "Mark received" }).click();
  const receive = admin.getByRole("dialog", { name: `Receive ${rma}` });
  await receive.getByLabel(`Condition: ${product.name}`).selectOption({ label: "Damaged" });
  await expect(receive.getByTestId("receive-line-refund")).toContainText("restocking fee");
  await expect(receive.getByTestId("receive-line-refund")).toContainText("not back on sale");
  await expect(receive).toContainText("Restocking fee: 15% of parts received damaged or used");
  const total = (await receive.getByTestId("receive-total").textContent())!;
  const [, refund, kept] = /Refund: (\$[\d,.]+)Restocking fee kept: (\$[\d,.]+)/.exec(total)!;
  await shot(admin, "receive-dialog");
  await receive.getByRole("button", { name: "Receive" }).click();
  const sure = admin.getByRole("dialog", { name: `Refund ${refund}?` });
  await expect(sure).toContainText(`Restocking fee kept: ${kept}.`);
  await expect(sure).toContainText(`The customer is refunded ${refund} and emailed a credit note.`);
  await sure.getByRole("button", { name: `Refund ${refund}` }).click();
  await expect(row.getByTestId("return-status")).toHaveText("Refunded");
  await expect(row).toContainText("Received 1, damaged");
  await expect(row).toContainText(`fee ${kept}`);
  await shot(admin, "returns-admin");

  // The figures are the server's: 15% of what one part refunds, net and tax.
  const [ret] = (
    await (await admin.request.get(`/api/returns?status=refunded&limit=100`)).json()
  ).filter((r: { rma: string }) => r.rma === rma) as {
    amount: number;
    fee: number;
    lines: { net: number; tax: number }[];
  }[];
  const line = ret!.lines[0]!;
  expect(ret!.fee).toBeCloseTo((Math.round(line.net * 15) + Math.round(line.tax * 15)) / 100, 2);
  expect(`$${ret!.amount.toFixed(2)}`).toBe(refund);

  // The customer sees what arrived, the fee and the refund.
  await page.goto(orderUrl);
  await expect(myReturn.getByTestId("return-status")).toHaveText("Refunded");
  await expect(myReturn).toContainText(rma);
  await expect(myReturn).toContainText(
    `Received 1, damaged · restocking fee ${kept} · refund ${refund}`,
  );
  await shot(page, "order-return");

  // The fee back off, for the other tests.
  await admin.request.put("/api/returns/restocking-fee", { data: { percent: 0, conditions: [] } });
});
