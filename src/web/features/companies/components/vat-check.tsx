import type { VatCheck } from "#contract/companies";
import { formatDate } from "../../../lib/format";

/**
 * What VIES (the Commission's register) said of a company's EU VAT number, in words (docs/tax.md
 * "VIES"): on the admin's company page and the owner's My company page.
 */
export function vatCheckText(check: VatCheck): string {
  // An answer is kept when a later re-check goes unanswered: said after it.
  const retrying = check.lastFailure
    ? ` (the latest re-check got no answer: ${check.lastFailure}; we will try again)`
    : "";
  switch (check.status) {
    case "valid":
      return [
        `Confirmed by VIES on ${formatDate(check.checkedAt!)}`,
        check.consultationNumber && `consultation number ${check.consultationNumber}`,
        check.viesName && `registered to ${check.viesName}`,
      ]
        .filter(Boolean)
        .join(" · ")
        .concat(retrying);
    case "invalid":
      return `VIES says this VAT number is not valid (checked ${formatDate(check.checkedAt!)}): orders are taxed as usual, without reverse charge, until VIES confirms it.${retrying}`;
    case "unanswered":
      return `Not yet confirmed by VIES: the service did not answer (${check.lastFailure}); we will try again. Until then its format check holds.`;
    case "pending":
      return "Being checked with VIES.";
  }
}

/** The VIES line (an answer saying "not valid" stands out). */
export function VatCheckLine({ check }: { check: VatCheck }) {
  return (
    <p
      className={`text-sm ${check.status === "invalid" ? "font-semibold" : "text-base-content/75"}`}
      data-testid="vat-check"
      role="status"
    >
      {vatCheckText(check)}
    </p>
  );
}
