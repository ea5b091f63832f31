import { orderAndPay } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 768 },
] as const;

test("the admin ships a line with its lot, the customer's claim shows it, and the report draws it and downloads as CSV on a phone and a desktop", async ({
  page,
  customer,
  adminPage: admin,
}) => {
  test.setTimeout(150_000);
  expect(customer.email).toBeTruthy();
  const product = await orderAndPay(page, "fuel");
  const [order] = (await (await page.request.get("/api/orders")).json()) as { _id: string }[];
  const orderId = order!._id;

  // The admin ships the line from the order page with its production lot.
  await admin.goto(`/dashboard/orders/${orderId}`);
  const form = admin.getByRole("form", { name: "Ship selected" });
  await form.getByLabel(product.name).fill(String(product.minimumOrder));
  await form.getByLabel("Lot, line 1").fill("E2E-LOT/7");
  await form.getByRole("button", { name: "Ship selected" }).click();
  await expect(admin.getByTestId("shipment")).toContainText("lot E2E-LOT/7");

  // The customer's claim of it shows the lot.
  const today = new Date().toISOString().slice(0, 10);
  const filed = await page.request.post("/api/warranty-claims", {
    data: {
      orderId,
      line: 1,
      qty: 1,
      vin: "1HGCM82633A004352",
      mileageAtInstall: 41_000,
      mileageAtFailure: 43_500,
      installedOn: today,
      failedOn: today,
      installedBy: "garage",
      description: "The pump stopped priming after two weeks.",
    },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByTestId("claim-lots")).toHaveText("E2E-LOT/7");

  // The report: charts beside their tables, nothing to scroll sideways, at both sizes.
  await admin.goto("/dashboard/warranty");
  const report = admin.getByRole("region", { name: "Report" });
  const lots = report.getByRole("table", { name: "Claims per 1,000 sold, by production lot" });
  await expect(lots).toContainText("E2E-LOT/7");
  for (const size of SIZES) {
    await admin.setViewportSize(size);
    await expect(report.locator(".recharts-surface").first()).toBeVisible();
    await report.scrollIntoViewIfNeeded();
    const width = await admin.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(size.width);
    await screenshot(report, `warranty-report-${size.name}`);
  }
  const csv = await admin.request.get(
    (await report.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!,
  );
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await csv.text()).toContain("lot,E2E-LOT/7,");
});
