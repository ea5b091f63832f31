import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import { companies } from "./tables";

/** A company's tax status as the tax module decides it (tax/company-tax.ts): its columns. */
export type CompanyTaxColumns = Partial<
  Pick<
    typeof companies.$inferInsert,
    | "taxId"
    | "taxIdCountry"
    | "taxIdValidatedAt"
    | "taxExemptionCertificate"
    | "taxExemptionRecordedAt"
    | "taxExemptionRecordedBy"
  >
>;

/** Writes a company's tax id and exemption certificate (the companies module owns the row). */
export async function setCompanyTaxStatus(
  tx: DbOrTx,
  companyId: string,
  columns: CompanyTaxColumns,
): Promise<void> {
  await tx.update(companies).set(columns).where(eq(companies.id, companyId));
}
