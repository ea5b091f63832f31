import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  warrantyReportQuerySchema,
  warrantyReportSchema,
  type WarrantyReport,
  type WarrantyReportQuery,
} from "../../contract/warranty-report";
import { errorAnswers } from "../api-errors";
import { sendCsvFile } from "../http/download";
import type { Guards } from "../http/request-context";
import { warrantyReportCsv } from "./report";

const errors = errorAnswers(400, 401, 403, 429);

/** What the report's two routes share: its filters (the months of sale). */
const filtered = { tags: ["warranty", "admin"], querystring: warrantyReportQuerySchema };

/** The warranty report, as figures and as a CSV file (docs/warranty.md "The report"). */
export const warrantyReportRoutes: FastifyPluginAsyncZod<{
  /** `lotLimit`: how many lots (null: every lot with claims, as the CSV lists them). */
  report: (query: WarrantyReportQuery, lotLimit?: number | null) => Promise<WarrantyReport>;
  guards: Guards;
}> = async (app, { report, guards }) => {
  app.get(
    "/warranty/report",
    {
      schema: {
        ...filtered,
        summary:
          "Admin: claims (not rejected) per 1,000 units sold per part, by month of sale and by production lot; inspected and approved claims by failure code; approved claims' cost (units × the line's unit price), in total and by month; of the orders placed in the months `from`–`to` (YYYY-MM, UTC), or all; kept a minute (`asOf`)",
        response: { 200: warrantyReportSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      void reply.header("cache-control", "no-store");
      return report(req.query);
    },
  );

  app.get(
    "/warranty/report.csv",
    {
      schema: {
        ...filtered,
        summary:
          "Admin: the warranty report as one CSV file (a `section` column: total, part, failure code, month, lot), same filters",
        produces: ["text/csv"],
        response: { 200: z.string(), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const csv = warrantyReportCsv(await report(req.query, null));
      const span = [req.query.from, req.query.to].filter(Boolean).join("-to-");
      return sendCsvFile(reply, `warranty-report${span ? `-${span}` : ""}.csv`, csv);
    },
  );
};
