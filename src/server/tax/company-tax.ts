import { eq } from "drizzle-orm";
import { companyMessages } from "../../contract/companies";
import type { CompanyTax, CompanyTaxInput } from "../../contract/tax";
import { checkEuVatId, countryOfVatPrefix, isEuCountry, tidyTaxId } from "../../contract/vat-ids";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { companies } from "../companies/tables";
import { setCompanyTaxStatus } from "../companies/tax-status";
import { type VatChecks, vatCheckOf } from "../companies/vat-checks";
import { user } from "../users/tables";
import { conflict, HttpError, notFound } from "../errors";
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

export const viesMessages = {
  off: "VIES checks are turned off (VIES_URL=off): EU VAT numbers are checked for their form only",
  noEuVatId: "This company has no EU VAT number to check: record one first",
} as const;

export function createCompanyTaxService(
  db: Db,
  opts: {
    now?: Clock;
    /** VIES checks of EU VAT numbers (companies/vat-checks.ts); absent: none (as VIES_URL=off). */
    vatChecks?: VatChecks;
  } = {},
) {
  const now = opts.now ?? systemClock;
  const vatChecks = opts.vatChecks?.enabled ? opts.vatChecks : undefined;

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
      vies: vatChecks ? await vatCheckOf(tx, companyId) : null,
    };
  }
  const strip = ({ name: _name, ...tax }: CompanyTax & { name: string }): CompanyTax => tax;

  return {
    get: async (companyId: string) => strip(await read(db, companyId)),

    /** Sets the tax id and the exemption certificate (null removes each), audit-logged. */
    async set(actor: AuditActor, companyId: string, input: CompanyTaxInput): Promise<CompanyTax> {
      const taxId = decideTaxId(input.taxId ?? null, input.taxIdCountry);
      const certificate = input.exemptionCertificate ?? null;
      const { answer, checkVies } = await db.transaction(async (tx) => {
        const before = await read(tx, companyId);
        const at = now();
        const idChanged = before.taxId !== taxId.taxId || before.taxIdCountry !== taxId.country;
        const certificateChanged = before.exemptionCertificate !== certificate;
        // The same number recorded again stays unchecked while VIES says it is not valid.
        const viesSaysInvalid = !idChanged && before.vies?.status === "invalid";
        await setCompanyTaxStatus(tx, companyId, {
          taxId: taxId.taxId,
          taxIdCountry: taxId.country,
          // Checked now when it changed; an unchanged checked id keeps its date.
          ...((idChanged || !before.taxIdValidatedAt) && !viesSaysInvalid
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
        // A new EU VAT number (or one VIES has not confirmed) is asked about after the commit.
        const checkVies =
          (await vatChecks?.recorded(tx, companyId, taxId.euVat ? taxId.taxId : null)) ?? false;
        return { answer: strip(await read(tx, companyId)), checkVies };
      });
      if (checkVies && taxId.taxId) await vatChecks?.queueCheck(companyId, taxId.taxId);
      return answer;
    },

    /**
     * The admin's "Check again now": asks VIES about the company's EU VAT number here and now
     * (within VIES_TIMEOUT_SECONDS), records the answer, audit-logged, and answers the tax status;
     * unanswered, a job tries again later. 409 when checks are off or there is no EU VAT number.
     */
    async checkVies(actor: AuditActor, companyId: string): Promise<CompanyTax> {
      if (!vatChecks) throw conflict(viesMessages.off);
      const before = await read(db, companyId);
      const vatId = before.taxId;
      if (!vatId || !isEuCountry(before.taxIdCountry)) throw conflict(viesMessages.noEuVatId);
      // A number recorded while checks were off gets its row first.
      await db.transaction((tx) => vatChecks.recorded(tx, companyId, vatId));
      const outcome = await vatChecks.checkNow(companyId, vatId);
      await recordAdminAction(db, {
        actor,
        action: "company.tax.vies",
        target: { type: "company", id: companyId },
        summary: `Asked VIES about ${vatId} of ${before.name}: ${
          outcome.kind === "valid"
            ? "valid"
            : outcome.kind === "invalid"
              ? "not valid"
              : outcome.kind === "unanswered"
                ? `no answer (${outcome.reason}); tried again later`
                : "the number changed meanwhile"
        }`,
      });
      return strip(await read(db, companyId));
    },
  };
}

export type CompanyTaxService = ReturnType<typeof createCompanyTaxService>;
