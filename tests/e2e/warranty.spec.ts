import { orderAndPay } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { loadedWidth, solidPng } from "./images";
import { openMail } from "./mailbox";

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 768 },
] as const;

test("a customer claims a failed part under warranty; the store asks, the customer answers, the store rejects with its reason", async ({
  page,
  customer,
  adminPage: admin,
}, info) => {
  test.setTimeout(150_000);
  const shot = async (p: typeof page, name: string) => {
    for (const size of SIZES) {
      await p.setViewportSize(size);
      await p.screenshot({ path: info.outputPath(`${name}-${size.name}.png`), fullPage: true });
    }
  };
  const product = await orderAndPay(page, "fuel");

  // The admin ships the order.
  await admin.goto("/dashboard/manageallorders");
  await admin.getByLabel("Search orders").fill(customer.email);
  await admin.getByRole("button", { name: "Search" }).click();
  const orderRow = admin.getByTestId("admin-order").filter({ hasText: customer.email });
  await orderRow.getByRole("button", { name: "Mark shipped" }).click();
  await admin
    .getByRole("dialog", { name: "Mark this order shipped?" })
    .getByRole("button", { name: "Mark shipped" })
    .click();
  await expect(orderRow.getByText("Shipped")).toBeVisible();

  // The order page says until when the part is covered.
  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: product.name })
    .getByRole("link", { name: /^Details/ })
    .click();
  const warranty = page.getByRole("region", { name: "Warranty" });
  await expect(warranty.getByTestId("warranty-line")).toContainText(
    /Under warranty until [A-Z][a-z]{2} \d{1,2}, \d{4}/,
  );

  // The claim: a mistyped VIN is refused on its field, in the contract's words.
  await warranty.getByRole("button", { name: `Claim warranty: ${product.name}` }).click();
  const form = page.getByRole("dialog", { name: `Claim warranty: ${product.name}` });
  const today = new Date().toISOString().slice(0, 10);
  await form.getByLabel("How many failed").fill("1");
  await form.getByLabel("Vehicle identification number (VIN)").fill("1HGCM82643A004352");
  await form.getByLabel("Mileage at installation").fill("41000");
  await form.getByLabel("Mileage at failure").fill("43500");
  await form.getByLabel("Installation date").fill(today);
  await form.getByLabel("Failure date").fill(today);
  await form.getByLabel("Who fitted the part").selectOption({ label: "A garage fitted it" });
  await form.getByLabel("What happened").fill("The pump stopped priming after two weeks.");
  await form.getByLabel("Your customer's invoice number (garages, optional)").fill("INV-778");
  await form.getByLabel("Photos of the part (optional, up to 3)").setInputFiles({
    name: "pump.png",
    mimeType: "image/png",
    buffer: solidPng(10, [30, 30, 200]),
  });
  await shot(page, "warranty-claim-form");
  await form.getByRole("button", { name: "File the claim" }).click();
  await expect(
    form.getByText("The check digit (9th character) is 4 but should be 3: the VIN is mistyped"),
  ).toBeVisible();
  await form.getByLabel("Vehicle identification number (VIN)").fill("1HGCM82633A004352");
  await form.getByRole("button", { name: "File the claim" }).click();
  await expect(form).toHaveCount(0);
  const claim = warranty.getByTestId("warranty-claim");
  await expect(claim.getByTestId("claim-status")).toHaveText("Submitted");
  const number = (await claim.getByTestId("claim-number").textContent())!;
  expect(number).toMatch(/^WC-\d{5,}$/);
  await expect(claim).toContainText("41,000 at installation, 43,500 at failure");
  await expect(claim).toContainText("A garage fitted it");
  expect(await loadedWidth(claim.getByRole("img", { name: "Photo 1 of the claim" }))).toBe(10);
  const orderUrl = page.url();

  await openMail(page, customer.email, `Your warranty claim ${number} is received`);
  await expect(page.getByText(`We received your warranty claim ${number}`)).toBeVisible();

  // The store asks for information from its queue.
  await admin.goto("/dashboard/warranty");
  await admin.getByLabel("Find a claim").fill(number);
  await admin.getByRole("button", { name: "Search" }).click();
  await admin.getByRole("button", { name: `Open claim ${number}` }).click();
  const adminClaim = admin.getByRole("article", { name: `Warranty claim ${number}` });
  // The store sees the claimant's photo.
  expect(await loadedWidth(adminClaim.getByRole("img", { name: "Photo 1 of the claim" }))).toBe(10);
  await adminClaim.getByLabel("Message to the claimant").fill("Was the fuel filter changed too?");
  await adminClaim.getByLabel("Ask for information (the claim waits for their answer)").check();
  await adminClaim.getByRole("button", { name: "Send" }).click();
  await expect(adminClaim.getByTestId("claim-status")).toHaveText("More information requested");
  await shot(admin, "warranty-queue");

  // The customer answers on the order page; the claim goes back to the store.
  await page.goto(orderUrl);
  await expect(claim.getByTestId("claim-status")).toHaveText("More information requested");
  await expect(claim).toContainText("We asked for more information: please answer below.");
  await expect(claim).toContainText("Was the fuel filter changed too?");
  await claim.getByLabel("Your message").fill("Yes, the filter was new.");
  await claim.getByRole("button", { name: "Send" }).click();
  await expect(claim.getByTestId("claim-status")).toHaveText("Submitted");
  await shot(page, "warranty-order");

  // The store adds a failure code to its list and records the inspection with it.
  await admin.reload();
  const code = `E2E${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
  const addCode = admin.getByRole("form", { name: "Add a failure code" });
  await addCode.getByLabel("Code").fill(code);
  await addCode.getByLabel("Name").fill("Fuel contamination");
  await addCode.getByRole("button", { name: "Add code" }).click();
  await expect(admin.getByRole("table", { name: "Failure codes" })).toContainText(code);
  await admin.getByRole("button", { name: `Open claim ${number}` }).click();
  await adminClaim.getByRole("button", { name: "Record inspection" }).click();
  const inspect = admin.getByRole("dialog", { name: `Inspect claim ${number}` });
  await inspect.getByLabel("Failure code").selectOption({ label: `${code} · Fuel contamination` });
  await inspect
    .getByLabel("Findings (the claimant reads these)")
    .fill("Water in the pump housing.");
  await inspect.getByRole("button", { name: "Record inspection" }).click();
  await expect(adminClaim.getByTestId("claim-status")).toHaveText("Inspected");
  await expect(adminClaim.getByTestId("claim-inspection")).toContainText(
    `Fuel contamination (${code}). Water in the pump housing.`,
  );

  // The store rejects with its reason; the customer reads it on the order and by email.
  await adminClaim.getByRole("button", { name: "Reject" }).click();
  const reject = admin.getByRole("dialog", { name: `Reject claim ${number}` });
  await reject
    .getByLabel("Why (the claimant reads this)")
    .fill("Fuel contamination, not a defect.");
  await reject.getByRole("button", { name: "Reject the claim" }).click();
  await expect(adminClaim.getByTestId("claim-status")).toHaveText("Rejected");

  await page.goto(orderUrl);
  await expect(claim.getByTestId("claim-status")).toHaveText("Rejected");
  await expect(claim).toContainText("Fuel contamination, not a defect.");
  await expect(claim.getByTestId("claim-inspection")).toContainText("Water in the pump housing.");
  await expect(claim.getByLabel("Your message")).toHaveCount(0);
  await openMail(page, customer.email, `Your warranty claim ${number} was rejected`);
  await expect(page.getByText("Why: Fuel contamination, not a defect.")).toBeVisible();
});
