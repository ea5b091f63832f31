import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PartPage } from "../contract/parts";
import type { ProductListItem } from "../contract/products";

// The pieces the server's HTML pages share (web-app.ts, part-page-html.ts): the build's
// server-side renderer, splicing HTML, and answering it compressed.

/**
 * `html` with `text` inserted before the first `marker` (unchanged without one). Sliced, not
 * `String.replace`d: product text in a replacement string would be read as patterns (`` $` ``
 * copies everything before the match, `$'` everything after, `$&` the match).
 */
export function insertBefore(html: string, marker: string, text: string): string {
  const at = html.indexOf(marker);
  return at < 0 ? html : html.slice(0, at) + text + html.slice(at);
}

/**
 * `html` with what lies between the first `start` and the next `end` replaced by `text` (unchanged
 * without them); sliced, as in `insertBefore`.
 */
export function replaceBetween(html: string, start: string, end: string, text: string): string {
  const from = html.indexOf(start);
  const to = from < 0 ? -1 : html.indexOf(end, from);
  return to < 0 ? html : html.slice(0, from + start.length) + text + html.slice(to);
}

/** A page as it goes out: as it is, and compressed once each way. */
export interface CompressedHtml {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function compress(html: string): CompressedHtml {
  const identity = Buffer.from(html);
  return {
    identity,
    br: zlib.brotliCompressSync(identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 },
    }),
    gzip: zlib.gzipSync(identity, { level: 9 }),
  };
}

/**
 * The same for a page made per request (a part's page): each form compressed when first asked,
 * brotli at quality 5 and gzip at 6. For a 130 KB page that is 2 ms where quality 9 takes 100 ms,
 * for 4 % more bytes (measured 2026-12-03).
 */
export function compressWhenAsked(html: string | Buffer): CompressedHtml {
  const identity = typeof html === "string" ? Buffer.from(html) : html;
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    identity,
    get br() {
      return (br ??= zlib.brotliCompressSync(identity, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
      }));
    },
    get gzip() {
      return (gzip ??= zlib.gzipSync(identity, { level: 6 }));
    },
  };
}

export function sendHtml(req: FastifyRequest, reply: FastifyReply, html: CompressedHtml) {
  const accepted = String(req.headers["accept-encoding"] ?? "");
  const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : undefined;
  reply
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("vary", "accept-encoding");
  if (encoding) reply.header("content-encoding", encoding);
  return reply.send(encoding ? html[encoding] : html.identity);
}

/**
 * What the build's server-side bundle of src/web/prerender.tsx exports
 * (`npm run build:web-ssr`, dist/web-ssr/prerender.js); the server does not import the web's code.
 */
export interface ServerRender {
  firstProductsRequest(url: string): string;
  renderWithProducts(
    url: string,
    products: { items: ProductListItem[]; total: number },
  ): Promise<string>;
  renderPart(
    url: string,
    part: PartPage,
  ): Promise<{ pictures: string; html: string; meta?: { title: string; description: string } }>;
}

/**
 * The build's server-side renderer, loaded at its first use (React's server renderer and the
 * app's public pages); undefined without the bundle (a development server), or when it cannot be
 * loaded (told once through `onError`).
 */
export function serverRenderer(
  webDistDir: string,
  onError: (err: unknown) => void,
): () => Promise<ServerRender | undefined> {
  const file = path.join(webDistDir, "..", "web-ssr", "prerender.js");
  if (!existsSync(file)) return async () => undefined;
  let loading: Promise<ServerRender | undefined> | undefined;
  return () =>
    (loading ??= (import(pathToFileURL(file).href) as Promise<ServerRender>).catch(
      (err: unknown) => {
        onError(err);
        return undefined;
      },
    ));
}
