import type { Page } from "@playwright/test";
import { orderAndPay } from "./auth-helpers";
import { inviteToCompany, joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";
import { loadedWidth, solidPng } from "./images";
import { openMail } from "./mailbox";
import { screenshot } from "./screenshots";

/**
 * Opens the claim form of the order page's line of `part` and fills it as a garage would: one
 * failed, `vin`, mileages, today's dates, fitted by a garage, what happened, the garage's invoice
 * number and a photo. Answers the form (not yet sent).
 */
async function fillClaimForm(page: Page, part: string, vin: string) {
  const warranty = page.getByRole("region", { name: "Warranty" });
  await warranty.getByRole("button", { name: `Claim warranty: ${part}` }).click();
  const form = page.getByRole("dialog", { name: `Claim warranty: ${part}` });
  const today = new Date().toISOString().slice(0, 10);
  await form.getByLabel("How many failed").fill("1");
  await form.getByLabel("Vehicle identification number (VIN)").fill(vin);
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
  return form;
}

/** The admin marks the order of `email` shipped from the orders page (no tracking). */
async function shipOrderOf(admin: Page, email: string) {
  await admin.goto(`/dashboard/manageallorders?q=${encodeURIComponent(email)}`);
  const orderRow = admin.getByTestId("admin-order").filter({ hasText: email });
  await orderRow.getByRole("button", { name: "Mark shipped" }).click();
  await admin
    .getByRole("dialog", { name: "Mark this order shipped?" })
    .getByRole("button", { name: "Mark shipped" })
    .click();
  await expect(orderRow.getByTestId("order-status")).toHaveText("Shipped");
}

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 768 },
] as const;

test("a customer claims a failed part under warranty; the store asks, the customer answers, the store rejects with its reason", async ({
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

  // The admin ships the order.
  await shipOrderOf(admin, customer.email);

  // The order page says until when the part is covered.
  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: product.name })
    .getByRole("link", { name: /^Details/ })
    .click();
  const warranty = page.getByRole("region", { name: "Warranty" });
  await expect(warranty.getByTestId("warranty-line")).toContainText(
    /Under warranty until \d{1,2} [A-Z][a-z]{2} \d{4}/,
  );

  // The claim: a mistyped VIN is refused on its field, in the contract's words.
  const form = await fillClaimForm(page, product.name, "1HGCM82643A004352");
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

test("a garage claims with a photo; the store asks for the part back, receives it and approves a replacement; the garage sees the $0 order and its tracking", async ({
  browser,
  baseURL,
  adminPage: admin,
}) => {
  test.setTimeout(180_000);
  const shot = async (p: Page, name: string) => {
    for (const size of SIZES) {
      await p.setViewportSize(size);
      await screenshot(p, `${name}-${size.name}`);
    }
  };
  // The garage: a company whose mechanic (a buyer) orders and claims.
  const garage = `Main Street Garage ${Date.now()}-${process.pid}`;
  const created = await admin.request.post("/api/companies", { data: { name: garage } });
  expect(created.status()).toBe(201);
  const mechanic = await joinByEmail(browser, baseURL, garage);
  try {
    await inviteToCompany(
      admin,
      ((await created.json()) as { id: string }).id,
      mechanic.who.email,
      "buyer",
    );
    await mechanic.accept();
    const m = mechanic.page;
    const product = await orderAndPay(m, "fuel");
    await shipOrderOf(admin, mechanic.who.email);

    await m.goto("/dashboard/myitems");
    await m
      .getByTestId("my-order")
      .filter({ hasText: product.name })
      .getByRole("link", { name: /^Details/ })
      .click();
    const orderUrl = m.url();
    const form = await fillClaimForm(m, product.name, "1HGCM82633A004352");
    await form.getByRole("button", { name: "File the claim" }).click();
    await expect(form).toHaveCount(0);
    const claim = m.getByRole("region", { name: "Warranty" }).getByTestId("warranty-claim");
    const number = (await claim.getByTestId("claim-number").textContent())!;
    await expect(claim.getByTestId("claim-status")).toHaveText("Submitted");

    // The store asks for the part back: a return (RMA) with the returns address, emailed.
    await admin.goto("/dashboard/warranty");
    await admin.getByLabel("Find a claim").fill(number);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.getByRole("button", { name: `Open claim ${number}` }).click();
    const adminClaim = admin.getByRole("article", { name: `Warranty claim ${number}` });
    await adminClaim.getByRole("button", { name: "Ask for the part back" }).click();
    const ask = admin.getByRole("dialog", { name: `Ask for the part of claim ${number}` });
    await ask
      .getByLabel("Instructions (optional; the claimant reads these)")
      .fill("Send the pump with its filter sock.");
    await ask.getByRole("button", { name: "Ask for the part back" }).click();
    await expect(adminClaim.getByTestId("claim-status")).toHaveText("Part requested back");
    const partReturn = adminClaim.getByTestId("claim-part-return");
    await expect(partReturn).toContainText(/return RMA-\d+ · Approved: send the parts back/);
    const rma = (await partReturn.textContent())!.match(/RMA-\d+/)![0];
    await expect(adminClaim.getByTestId("claim-waiting-part")).toContainText(
      `mark ${rma} received on the Returns page`,
    );
    await expect(adminClaim.getByRole("button", { name: "Approve" })).toHaveCount(0);

    await openMail(
      m,
      mechanic.who.email,
      `Please send us the part of warranty claim ${number} (${rma})`,
    );
    await expect(m.getByText(`write the return number ${rma} on the parcel`)).toBeVisible();
    await expect(m.getByText("Send the pump with its filter sock.")).toBeVisible();

    // The part arrives: received on the Returns page, kept for the claim (no refund, not on sale).
    await admin.goto("/dashboard/returns");
    const returnRow = admin.getByTestId("admin-return").filter({ hasText: rma });
    await returnRow.getByRole("button", { name: "Mark received" }).click();
    const receive = admin.getByRole("dialog", { name: `Receive ${rma}` });
    await receive.getByLabel(`Condition: ${product.name}`).selectOption({ label: "Used" });
    await expect(receive.getByTestId("receive-line-refund")).toHaveText(
      `Kept for warranty claim ${number} · not back on sale`,
    );
    await expect(receive.getByTestId("receive-total")).toHaveText("Refund now: none");
    await receive.getByRole("button", { name: "Receive" }).click();
    const confirm = admin.getByRole("dialog", {
      name: `Receive the part of warranty claim ${number}?`,
    });
    await expect(confirm).toContainText("nothing is refunded now");
    await confirm.getByRole("button", { name: "Receive the part" }).click();
    await expect(returnRow.getByTestId("return-status")).toHaveText(
      "Received: decided with its warranty claim",
    );

    // The store approves a replacement: a $0 order to the garage, then ships it with tracking.
    await admin.goto("/dashboard/warranty");
    await admin.getByLabel("Find a claim").fill(number);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.getByRole("button", { name: `Open claim ${number}` }).click();
    await expect(adminClaim.getByTestId("claim-status")).toHaveText("Part received");
    await adminClaim.getByRole("button", { name: "Approve" }).click();
    const approve = admin.getByRole("dialog", { name: `Approve claim ${number}` });
    await expect(approve.getByLabel("Replacement part, at no charge")).toBeChecked();
    await shot(admin, "warranty-approve");
    await approve.getByRole("button", { name: "Approve the claim" }).click();
    await expect(adminClaim.getByTestId("claim-status")).toHaveText("Approved");
    const remedy = adminClaim.getByTestId("claim-remedy");
    await expect(remedy).toContainText(
      /Replacement part, at no charge · order PW-\d+ · not shipped yet/,
    );
    const replacement = (await remedy.textContent())!.match(/PW-\d+/)![0];

    await admin.goto(`/dashboard/manageallorders?q=${replacement}`);
    const row = admin.getByTestId("admin-order").filter({ hasText: replacement });
    await expect(row).toContainText("No charge");
    await row.getByRole("button", { name: "Mark shipped" }).click();
    const ship = admin.getByRole("dialog", { name: "Mark this order shipped?" });
    await ship.getByLabel("Carrier").selectOption({ label: "UPS" });
    await ship.getByLabel("Tracking number").fill("1Z999AA10123456784");
    await ship.getByRole("button", { name: "Mark shipped" }).click();
    await expect(row.getByTestId("order-status")).toHaveText("Shipped");

    // The garage sees the claim approved, the replacement and its tracking, and the $0 order.
    await m.goto(orderUrl);
    await expect(claim.getByTestId("claim-status")).toHaveText("Approved");
    await expect(claim.getByTestId("claim-remedy")).toContainText(
      `order ${replacement} · shipped with UPS · tracking 1Z999AA10123456784`,
    );
    await shot(m, "warranty-approved-claim");
    await claim.getByRole("link", { name: replacement }).click();
    await expect(m.getByTestId("order-payment")).toHaveText(
      `No charge · warranty replacement for claim ${number}`,
    );
    await expect(m.getByTestId("order-total")).toHaveText("$0.00");
    await expect(m.getByTestId("shipment-tracking")).toContainText("Shipped with UPS");
    await expect(m.getByText(/^Paid/)).toHaveCount(0);
    await shot(m, "warranty-replacement-order");
    await openMail(m, mechanic.who.email, `Your warranty claim ${number} is approved`);
    await expect(m.getByText(`a replacement at no charge: order ${replacement}`)).toBeVisible();

    // The report counts the claim against its part (warranty-report.spec.ts draws the rest).
    await admin.goto("/dashboard/warranty");
    const parts = admin
      .getByRole("region", { name: "Report" })
      .getByRole("table", { name: "Claims per 1,000 sold, per part" });
    await expect(parts.getByRole("row").filter({ hasText: product.name })).toBeVisible();
  } finally {
    await mechanic.context.close();
  }
});
