import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

/**
 * EU VAT numbers checked against VIES (docs/tax.md "VIES"), the store pointed at a local stand-in
 * of it (global-setup.ts, E2E_VIES_URL): the admin records a number VIES says is not valid and the
 * company's tax screen says so (no reverse charge); once VIES knows it, "Check again now" shows it
 * confirmed; while VIES does not answer, the screen says it will try again.
 */
const standIn = (vatId: string, behaviour: "valid" | "invalid" | "unavailable") =>
  fetch(`${process.env.E2E_VIES_URL}/stand-in/${vatId}/${behaviour}`, { method: "PUT" });

test("the company's tax screen shows VIES's answer, and the admin checks again now", async ({
  page,
}) => {
  // A number of this run only (9 digits after DE), so parallel runs do not share its answer.
  const vatId = `DE${String(Date.now()).slice(-6)}${String(process.pid % 1000).padStart(3, "0")}`;
  await standIn(vatId, "invalid");
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", {
    data: { name: `VIES ${Date.now()}-${process.pid}` },
  });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;

  await page.goto(`/dashboard/companies/${companyId}`);
  const form = page.getByRole("form", { name: "Company tax status" });
  await form.getByLabel("VAT number / tax id").fill(vatId);
  await form.getByRole("button", { name: "Save tax status" }).click();
  // The job asks VIES; the screen shows its answer when it comes.
  await expect(page.getByTestId("vat-check")).toContainText(
    "VIES says this VAT number is not valid (checked 4 Dec 2026)",
  );
  await expect(page.getByTestId("company-tax-summary")).toContainText(
    "orders are taxed as usual, without reverse charge",
  );

  // VIES away: asked again, it does not answer; the format check holds.
  await standIn(vatId, "unavailable");
  await page.getByRole("button", { name: "Check again now" }).click();
  await expect(page.getByTestId("vat-check")).toContainText(
    "VIES says this VAT number is not valid (checked 4 Dec 2026): orders are taxed as usual, without reverse charge, until VIES confirms it. (the latest re-check got no answer: MS_UNAVAILABLE; we will try again)",
  );

  // VIES knows it now.
  await standIn(vatId, "valid");
  await page.getByRole("button", { name: "Check again now" }).click();
  await expect(page.getByTestId("vat-check")).toContainText(
    `Confirmed by VIES on 4 Dec 2026 · registered to TRADER ${vatId}`,
  );
  await expect(page.getByTestId("company-tax-summary")).toContainText("reverse-charged (0 %)");
});
