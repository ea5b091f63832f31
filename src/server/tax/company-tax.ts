import { eq } from "drizzle-orm";
import { companyMessages } from "../../contract/companies";
import type { CompanyTax, CompanyTaxInput } from "../../contract/tax";
import { checkEuVatId, countryOfVatPrefix, isEuCountry, tidyTaxId } from "../../contract/vat-ids";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { companies } from "../companies/tables";
import { setCompanyTaxStatus } from "../companies/tax-status";
import { user } from "../users/tables";
import { HttpError, notFound } from "../errors";
import { type Clock, systemClock } from "../clock";

/**
 * A company's tax status (docs/tax.md): the tax id with its country and whether its EU
 * VAT form was checked (reverse charge), and an exemption certificate number (0 % tax) with who
 * recorded it and when. Admins only; every change is audit-logged.
 */

/** What the tax id becomes: as stored, its country, and whether it is a checked EU VAT number. */
export interface DecidedTaxId {
  taxId: string | null;
  country: string | null;
  euVat: boolean;
}

/**
 * Pure: decides how a tax id is stored. An EU country (given, or read from the id's VAT prefix)
 * means an EU VAT number: its form must pass (else 422 naming the expected form) and it is stored
 * the standard way (DE123456789). Any other country (or none) stores the id as typed, unchecked:
 * it never reverse-charges.
 */
export function decideTaxId(
  taxId: string | null,
  givenCountry: string | null | undefined,
): DecidedTaxId {
  if (taxId === null) return { taxId: null, country: null, euVat: false };
  const country = givenCountry ?? countryOfVatPrefix(tidyTaxId(taxId).slice(0, 2));
  if (!country || !isEuCountry(country)) return { taxId, country: country ?? null, euVat: false };
  const check = checkEuVatId(taxId, country);
  if (!check.ok) {
    throw new HttpError(422, "validation", check.message, { taxId: check.message });
  }
  return { taxId: check.vatId, country: check.country, euVat: true };
}

export function createCompanyTaxService(db: Db, opts: { now?: Clock } = {}) {
  const now = opts.now ?? systemClock;

  async function read(tx: DbOrTx, companyId: string): Promise<CompanyTax & { name: string }> {
    const [row] = await tx
      .select({
        name: companies.name,
        taxId: companies.taxId,
        taxIdCountry: companies.taxIdCountry,
        taxIdValidatedAt: companies.taxIdValidatedAt,
        exemptionCertificate: companies.taxExemptionCertificate,
        exemptionRecordedAt: companies.taxExemptionRecordedAt,
        exemptionRecordedBy: user.email,
      })
      .from(companies)
      .leftJoin(user, eq(user.id, companies.taxExemptionRecordedBy))
      .where(eq(companies.id, companyId));
    if (!row) throw notFound(companyMessages.notFound);
    return {
      companyId,
      name: row.name,
      taxId: row.taxId,
      taxIdCountry: row.taxIdCountry,
      taxIdValidatedAt: row.taxIdValidatedAt?.toISOString() ?? null,
      reverseChargeEligible: row.taxIdValidatedAt !== null && isEuCountry(row.taxIdCountry),
      exemptionCertificate: row.exemptionCertificate,
      exemptionRecordedAt: row.exemptionRecordedAt?.toISOString() ?? null,
      exemptionRecordedBy: row.exemptionCertificate ? (row.exemptionRecordedBy ?? null) : null,
    };
  }
  const strip = ({ name: _name, ...tax }: CompanyTax & { name: string }): CompanyTax => tax;

  return {
    get: async (companyId: string) => strip(await read(db, companyId)),

    /** Sets the tax id and the exemption certificate (null removes each), audit-logged. */
    async set(actor: AuditActor, companyId: string, input: CompanyTaxInput): Promise<CompanyTax> {
      const taxId = decideTaxId(input.taxId ?? null, input.taxIdCountry);
      const certificate = input.exemptionCertificate ?? null;
      return db.transaction(async (tx) => {
        const before = await read(tx, companyId);
        const at = now();
        const idChanged = before.taxId !== taxId.taxId || before.taxIdCountry !== taxId.country;
        const certificateChanged = before.exemptionCertificate !== certificate;
        await setCompanyTaxStatus(tx, companyId, {
          taxId: taxId.taxId,
          taxIdCountry: taxId.country,
          // Checked now when it changed; an unchanged checked id keeps its date.
          ...(idChanged || !before.taxIdValidatedAt
            ? { taxIdValidatedAt: taxId.euVat ? at : null }
            : {}),
          ...(certificateChanged && {
            taxExemptionCertificate: certificate,
            taxExemptionRecordedAt: certificate ? at : null,
            taxExemptionRecordedBy: certificate ? actor.id : null,
          }),
        });
        const changes: string[] = [];
        if (idChanged) {
          changes.push(
            `tax id ${before.taxId ?? "none"} → ${taxId.taxId ?? "none"}` +
              (taxId.country
                ? ` (${taxId.country}${taxId.euVat ? ", EU VAT format checked" : ""})`
                : ""),
          );
        }
        if (certificateChanged) {
          changes.push(
            certificate
              ? `tax exemption certificate ${certificate} recorded`
              : `tax exemption certificate ${before.exemptionCertificate} removed`,
          );
        }
        if (changes.length > 0) {
          await recordAdminAction(tx, {
            actor,
            action: "company.tax",
            target: { type: "company", id: companyId },
            summary: `Changed the tax status of ${before.name}: ${changes.join("; ")}`,
          });
        }
        return strip(await read(tx, companyId));
      });
    },
  };
}

export type CompanyTaxService = ReturnType<typeof createCompanyTaxService>;
