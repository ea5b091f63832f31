import type { FastifyReply } from "fastify";

/**
 * A CSV file as a download (the product CSV, the vehicle CSV, the warranty report): UTF-8 with a
 * byte order mark, so that a spreadsheet reads it as UTF-8, an attachment named `filename`, never
 * cached.
 */
export const sendCsvFile = (reply: FastifyReply, filename: string, csv: string) =>
  reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("cache-control", "no-store")
    .send(`\uFEFF${csv}`);

/** Today (UTC) as a downloaded file's name carries it: `2026-12-05`. */
export const fileDay = () => new Date().toISOString().slice(0, 10);
