import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect, test } from "vitest";
import type { WarrantyReport as Report } from "#contract/warranty-report";
import { json, renderWithApi, undoStubsAfterEach } from "../../../../../tests/support/web-api";
import { WarrantyReport } from "./warranty-report";

undoStubsAfterEach();

const report: Report = {
  from: null,
  to: null,
  asOf: "2027-04-02T09:30:00.000Z",
  currency: "USD",
  totals: { sold: 1200, claims: 3, claimedUnits: 5, perThousand: 4.2, approvedCostCents: 4000 },
  parts: [
    {
      productId: "p1",
      partNumber: "PW-BR-1001",
      productName: "Brake pads",
      sold: 700,
      claims: 2,
      claimedUnits: 4,
      perThousand: 5.7,
    },
  ],
  failureCodes: [{ code: "WEAR", label: "Premature wear", claims: 1, claimedUnits: 2 }],
  months: [
    {
      month: "2027-03",
      sold: 1200,
      claims: 3,
      claimedUnits: 5,
      perThousand: 4.2,
      approvedCostCents: 4000,
    },
  ],
  lots: [{ lot: "L-200", sold: 100, claims: 1, claimedUnits: 2, perThousand: 20 }],
  lotsWithClaims: 1,
};

test("the report lists each figure in a table beside its chart, filters by month of sale and links its CSV", async () => {
  const urls: string[] = [];
  renderWithApi(<WarrantyReport />, (_method, url) => {
    urls.push(url);
    return json(report);
  });
  const totals = await screen.findByTestId("report-totals");
  expect(within(totals).getByText("1,200")).toBeTruthy();
  expect(within(totals).getByText("3 (5 units)")).toBeTruthy();
  expect(within(totals).getByText("4.2")).toBeTruthy();
  expect(within(totals).getByText("$40.00")).toBeTruthy();

  const parts = screen.getByRole("table", { name: "Claims per 1,000 sold, per part" });
  expect(within(parts).getByText("Brake pads")).toBeTruthy();
  expect(within(parts).getByText("5.7")).toBeTruthy();
  const codes = screen.getByRole("table", { name: "Claims by failure code" });
  expect(within(codes).getByText("WEAR")).toBeTruthy();
  expect(within(codes).getByText(/Premature wear/)).toBeTruthy();
  const months = screen.getByRole("table", { name: "Claims per 1,000 sold, by month of sale" });
  expect(within(months).getByText("2027-03")).toBeTruthy();
  expect(within(months).getByText("$40.00")).toBeTruthy();
  const lots = screen.getByRole("table", { name: "Claims per 1,000 sold, by production lot" });
  expect(within(lots).getByText("L-200")).toBeTruthy();
  expect(within(lots).getByText("20.0")).toBeTruthy();

  const csv = screen.getByRole("link", { name: "Download CSV" });
  expect(csv.getAttribute("href")).toBe("/api/warranty/report.csv");
  fireEvent.change(screen.getByLabelText("Sold from (month)"), { target: { value: "2027-01" } });
  await waitFor(() => expect(urls).toContain("/api/warranty/report?from=2027-01"));
  expect(csv.getAttribute("href")).toBe("/api/warranty/report.csv?from=2027-01");

  // A range the wrong way round is said, and not asked for.
  fireEvent.change(screen.getByLabelText("Sold until (month)"), { target: { value: "2026-12" } });
  expect(await screen.findByText("The last month cannot be before the first")).toBeTruthy();
  expect(urls).not.toContain("/api/warranty/report?from=2027-01&to=2026-12");
});
