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
  /** Sent gzipped to a browser that takes both: its gzip costs far less to make (`joinedPage`). */
  gzipFirst?: boolean;
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

/** Bytes every page of a kind starts from (a shell's 130 KB of styles), deflated once. */
export interface DeflatedOnce {
  bytes: Buffer;
  /** Raw deflate ending in a sync flush: whole bytes, no final block, no reference to later bytes. */
  deflated: Buffer;
}

export function deflateOnce(bytes: Buffer): DeflatedOnce {
  const deflated = zlib.deflateRawSync(bytes, {
    level: 9,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  return { bytes, deflated };
}

/** gzip's header: deflate, no name or time, no extra flags, an unknown system (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * A page made of pieces, some of them the same on every page (`deflateOnce`): its gzip is one
 * member whose deflate stream is the pieces' own streams in a row (each ends on a whole byte
 * and only the last is final), so a part page deflates its own 5–20 KB and copies the shell's
 * styles as they were deflated at startup: 0.1 ms where brotli over the whole page took 1.7,
 * for about 9 % more bytes (measured 2026-12-03). Brotli is made only for a browser that does
 * not take gzip.
 */
export function joinedPage(pieces: (Buffer | DeflatedOnce)[]): CompressedHtml {
  const identity = Buffer.concat(pieces.map((p) => (Buffer.isBuffer(p) ? p : p.bytes)));
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    identity,
    gzipFirst: true,
    // Quality 5: 2 ms for a 130 KB page where quality 9 takes 100 ms, for 4 % more bytes.
    get br() {
      return (br ??= zlib.brotliCompressSync(identity, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
      }));
    },
    get gzip() {
      if (gzip) return gzip;
      const streams = pieces.map((p, i) =>
        !Buffer.isBuffer(p)
          ? p.deflated
          : zlib.deflateRawSync(p, {
              level: 6,
              finishFlush: zlib.constants[i < pieces.length - 1 ? "Z_SYNC_FLUSH" : "Z_FINISH"],
            }),
      );
      // A page ending in a piece deflated once still needs a final block: an empty one.
      if (!Buffer.isBuffer(pieces.at(-1))) streams.push(zlib.deflateRawSync(Buffer.alloc(0)));
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(zlib.crc32(identity), 0);
      trailer.writeUInt32LE(identity.length % 2 ** 32, 4);
      return (gzip = Buffer.concat([GZIP_HEADER, ...streams, trailer]));
    },
  };
}

export function sendHtml(req: FastifyRequest, reply: FastifyReply, html: CompressedHtml) {
  const accepted = String(req.headers["accept-encoding"] ?? "");
  const br = /\bbr\b/.test(accepted);
  const gzip = /\bgzip\b/.test(accepted);
  const encoding = gzip && (html.gzipFirst || !br) ? "gzip" : br ? "br" : undefined;
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
