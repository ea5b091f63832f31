import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import {
  companyTaxInputSchema,
  companyTaxSchema,
  taxRateImportResultSchema,
  taxRateImportSchema,
  taxRateInputSchema,
  taxRateSchema,
} from "../../contract/tax";
import { errorAnswers } from "../api-errors";
import { recordRoutes } from "../http/record-routes";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { CompanyTaxService } from "./company-tax";
import type { TaxService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/** What a company's tax status routes share: the company by its id, answered its tax status. */
const companyTaxRoute = {
  tags: ["tax", "companies", "admin"],
  params: idParamsSchema,
  response: { 200: companyTaxSchema, ...errors },
};

/** Admin: tax rates (catalog prices are net of tax; docs/tax.md). */
export const taxRoutes: FastifyPluginAsyncZod<{
  tax: TaxService;
  companyTax: CompanyTaxService;
  guards: Guards;
}> = async (app, { tax, companyTax, guards }) => {
  const rates = recordRoutes(app, "/tax-rates", {
    tags: ["tax"],
    record: taxRateSchema,
    errors,
    onRequest: guards.adminOnly,
  });
  rates.list("Admin: every tax rate, by country and region", () => tax.list());
  rates.create(
    "Admin: add a tax rate for a country, or for one of its regions (a region's rate wins over its country's); one per place",
    taxRateInputSchema,
    (body, me) => tax.create(body, me),
  );

  app.post(
    "/tax-rates/import",
    {
      schema: {
        tags: ["tax"],
        summary:
          "Admin: add or replace tax rates from a CSV's text (country, region, postal_code, name, rate, applies_to_shipping); any bad row: 422 naming its line, nothing written",
        body: taxRateImportSchema,
        response: { 200: taxRateImportResultSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => tax.importCsv(req.body.csv, caller(req)),
  );

  rates.replace(
    "Admin: change a tax rate (placed orders keep the tax they were charged)",
    taxRateInputSchema,
    (id, body, me) => tax.replace(id, body, me),
  );
  rates.remove("Admin: remove a tax rate", (id, me) => tax.remove(id, me));

  app.get(
    "/companies/:id/tax",
    {
      schema: {
        ...companyTaxRoute,
        summary:
          "Admin: a company's tax status: its tax id (EU VAT form checked, and VIES's last answer) and tax exemption certificate",
      },
      ...adminRoute(guards, "customers:read"),
    },
    async (req) => {
      return companyTax.get(req.params.id);
    },
  );

  app.put(
    "/companies/:id/tax",
    {
      schema: {
        ...companyTaxRoute,
        summary:
          "Admin: set a company's tax id (an EU VAT number's form is checked: 422 with the expected form) and its tax exemption certificate (null removes); audit-logged",
        body: companyTaxInputSchema,
      },
      onRequest: guards.adminOnly,
    },
    async (req) => companyTax.set(caller(req), req.params.id, req.body),
  );

  app.post(
    "/companies/:id/tax/vies-check",
    {
      schema: {
        ...companyTaxRoute,
        summary:
          "Admin: check the company's EU VAT number against VIES now (within VIES_TIMEOUT_SECONDS) and answer its tax status with VIES's answer; unanswered, a job tries again later. 409 when VIES checks are off or the company has no EU VAT number; audit-logged",
      },
      onRequest: guards.adminOnly,
    },
    async (req) => companyTax.checkVies(caller(req), req.params.id),
  );
};
