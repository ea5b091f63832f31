import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { indexablePages, paths } from "../contract/paths";
import { escapeHtml } from "./page-head";

/** At most this many addresses in one sitemap file (the sitemaps protocol's limit). */
export const SITEMAP_FILE_URLS = 50_000;

export interface SitemapParts {
  /** How many parts there are. */
  count(): Promise<number>;
  /** Part addresses (slugs) in a stable order, from the `skip`-th, at most `limit`, in batches. */
  addresses(skip: number, limit: number): AsyncIterable<string[]>;
}

const XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * `/sitemap.xml` is a sitemap index (docs/catalog.md "Sitemap"): `/sitemaps/pages.xml` (the public
 * pages) and `/sitemaps/parts-<n>.xml`, every part page, at most `perFile` to a file, each file
 * streamed from the database as it is read. `/robots.txt` points to the index.
 */
export function registerSitemaps(
  app: FastifyInstance,
  opts: { publicUrl: string; parts: SitemapParts; perFile?: number },
) {
  const { publicUrl, parts } = opts;
  const perFile = opts.perFile ?? SITEMAP_FILE_URLS;
  const loc = (address: string) => `<loc>${escapeHtml(`${publicUrl}${address}`)}</loc>`;
  const xml = { "content-type": "application/xml; charset=utf-8" };

  app.get("/sitemap.xml", { schema: { hide: true } }, async (_req, reply) => {
    const files = Math.ceil((await parts.count()) / perFile);
    const sitemaps = ["/sitemaps/pages.xml"];
    for (let n = 1; n <= files; n++) sitemaps.push(`/sitemaps/parts-${n}.xml`);
    const entries = sitemaps.map((s) => `  <sitemap>${loc(s)}</sitemap>`).join("\n");
    return reply
      .headers({ ...xml, "cache-control": "public, max-age=3600" })
      .send(`${HEAD}<sitemapindex ${XMLNS}>\n${entries}\n</sitemapindex>\n`);
  });

  app.get("/robots.txt", { schema: { hide: true } }, (_req, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(`User-agent: *\nAllow: /\nSitemap: ${publicUrl}/sitemap.xml\n`),
  );

  app.get<{ Params: { file: string } }>(
    "/sitemaps/:file",
    { schema: { hide: true } },
    async (req, reply) => {
      const { file } = req.params;
      reply.headers({ ...xml, "cache-control": "public, max-age=3600" });
      if (file === "pages.xml") {
        const urls = indexablePages.map((p) => `  <url>${loc(p)}</url>`).join("\n");
        return reply.send(`${HEAD}<urlset ${XMLNS}>\n${urls}\n</urlset>\n`);
      }
      const n = /^parts-([1-9][0-9]{0,5})\.xml$/.exec(file)?.[1];
      const files = n === undefined ? 0 : Math.ceil((await parts.count()) / perFile);
      if (n === undefined || Number(n) > files) {
        return reply.code(404).type("text/plain").send("No such sitemap");
      }
      return reply.send(Readable.from(partUrls(parts, (Number(n) - 1) * perFile, perFile, loc)));
    },
  );
}

/** A sitemap file of part pages, written as the addresses are read (a slug shared is listed once). */
async function* partUrls(
  parts: SitemapParts,
  skip: number,
  limit: number,
  loc: (address: string) => string,
): AsyncGenerator<string> {
  yield `${HEAD}<urlset ${XMLNS}>\n`;
  let last: string | undefined;
  for await (const slugs of parts.addresses(skip, limit)) {
    let chunk = "";
    for (const slug of slugs) {
      if (slug !== last) chunk += `  <url>${loc(paths.part.to(slug))}</url>\n`;
      last = slug;
    }
    yield chunk;
  }
  yield "</urlset>\n";
}
