import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import type { MyCompany as MyCompanyAnswer, VatCheck } from "#contract/companies";
import type { CompanyTax } from "#contract/tax";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { notify } from "../../../lib/notify";
import { CompanyTaxStatus } from "./company-tax";
import { MyCompany } from "./my-company";

// The VIES answer on the admin's company tax screen (with "Check again now") and on the owner's
// My company page (docs/tax.md "VIES").

undoStubsAfterEach();

const COMPANY = "11111111-1111-4111-8111-111111111111";

const check = (over: Partial<VatCheck>): VatCheck => ({
  vatId: "DE129273398",
  status: "valid",
  checkedAt: "2026-12-04T10:15:00.000Z",
  consultationNumber: "WAPIAAAAX12345",
  viesName: "AUTOHAUS GMBH",
  viesAddress: null,
  lastAttemptAt: "2026-12-04T10:15:00.000Z",
  lastFailure: null,
  ...over,
});

const tax = (vies: VatCheck | null, eligible = true): CompanyTax => ({
  companyId: COMPANY,
  taxId: "DE129273398",
  taxIdCountry: "DE",
  taxIdValidatedAt: eligible ? "2026-12-04T10:15:00.000Z" : null,
  reverseChargeEligible: eligible,
  exemptionCertificate: null,
  exemptionRecordedAt: null,
  exemptionRecordedBy: null,
  vies,
});

test("admin: confirmed, then 'Check again now' asks VIES and shows its new answer", async () => {
  const success = vi.spyOn(notify, "success").mockImplementation(() => {});
  let current = tax(check({}));
  const sent = renderWithApi(<CompanyTaxStatus companyId={COMPANY} />, (method) => {
    if (method === "POST") {
      current = tax(check({ status: "invalid", consultationNumber: null, viesName: null }), false);
    }
    return json(current);
  });
  expect((await screen.findByTestId("vat-check")).textContent).toContain(
    "Confirmed by VIES on 4 Dec 2026 · consultation number WAPIAAAAX12345 · registered to AUTOHAUS GMBH",
  );
  fireEvent.click(screen.getByRole("button", { name: "Check again now" }));
  await waitFor(() =>
    expect(screen.getByTestId("vat-check").textContent).toContain(
      "VIES says this VAT number is not valid (checked 4 Dec 2026)",
    ),
  );
  expect(sent).toEqual([
    { method: "POST", url: `/api/companies/${COMPANY}/tax/vies-check`, body: undefined },
  ]);
  expect(success).toHaveBeenCalledWith("VIES answered");
  expect(screen.getByTestId("company-tax-summary").textContent).toContain(
    "orders are taxed as usual, without reverse charge",
  );
});

test("admin: VIES did not answer: the format check holds, and we try again", async () => {
  renderWithApi(<CompanyTaxStatus companyId={COMPANY} />, () =>
    json(tax(check({ status: "unanswered", checkedAt: null, lastFailure: "MS_UNAVAILABLE" }))),
  );
  expect((await screen.findByTestId("vat-check")).textContent).toContain(
    "Not yet confirmed by VIES: the service did not answer (MS_UNAVAILABLE); we will try again.",
  );
  expect(screen.getByTestId("company-tax-summary").textContent).toContain(
    "format checked 4 Dec 2026: orders delivered to another EU member state are reverse-charged",
  );
});

test("admin: no VIES line without a check (not an EU VAT number, or VIES off)", async () => {
  renderWithApi(<CompanyTaxStatus companyId={COMPANY} />, () => json(tax(null)));
  expect(await screen.findByTestId("company-tax-summary")).toBeTruthy();
  expect(screen.queryByTestId("vat-check")).toBeNull();
  expect(screen.queryByRole("button", { name: "Check again now" })).toBeNull();
});

test("owner: My company shows the VAT id and what VIES said of it", async () => {
  const mine: MyCompanyAnswer = {
    company: {
      id: COMPANY,
      name: "Autohaus",
      taxId: "DE129273398",
      paymentTerms: "card",
      creditLimit: null,
      role: "owner",
      orderLimit: null,
      monthlyLimit: null,
      hasPriceList: false,
      openInvoices: null,
      creditLeft: null,
      members: [],
      vatCheck: check({ status: "invalid", consultationNumber: null }),
    },
  };
  renderWithApi(<MyCompany />, (_method, url) => json(url.endsWith("/api/company") ? mine : []));
  expect((await screen.findByTestId("vat-check")).textContent).toContain(
    "VIES says this VAT number is not valid (checked 4 Dec 2026): orders are taxed as usual, without reverse charge, until VIES confirms it.",
  );
  expect(screen.getByText("DE129273398")).toBeTruthy();
});
