import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import Fastify from "fastify";
import { expect, test } from "vitest";
import { compress, deflateOnce, joinedPage, sendHtml, type CompressedHtml } from "./html-pages";

const styles = Buffer.from(`<style>${".btn{color:red}\n".repeat(4000)}</style>`);
const head = Buffer.from("<!doctype html><html><head><title>Disc · PartsWorks</title>");
const body = Buffer.from(`</head><body><main>${"<p>Vented front disc</p>".repeat(300)}</main>`);

test.each([
  ["head, shared styles, body", [head, deflateOnce(styles), body]],
  ["ending in the shared piece", [head, deflateOnce(styles)]],
  ["starting with it", [deflateOnce(styles), body]],
  ["the shared piece alone", [deflateOnce(styles)]],
  ["empty and incompressible pieces", [Buffer.alloc(0), deflateOnce(randomBytes(70_000)), body]],
])("a joined page's gzip is one member that unzips to the page: %s", (_, pieces) => {
  const page = joinedPage(pieces);
  const whole = Buffer.concat(pieces.map((p) => (Buffer.isBuffer(p) ? p : p.bytes)));
  expect(page.identity.equals(whole)).toBe(true);
  expect(zlib.gunzipSync(page.gzip).equals(whole)).toBe(true);
  expect(zlib.brotliDecompressSync(page.br).equals(whole)).toBe(true);
});

test("the shared piece is deflated once: a page's gzip is about its own bytes' more", () => {
  const shared = deflateOnce(styles);
  const small = joinedPage([head, shared, Buffer.from("</head><body></body>")]).gzip;
  const large = joinedPage([head, shared, body]).gzip;
  expect(small.length).toBeLessThan(shared.deflated.length + 200);
  expect(large.length - small.length).toBeLessThan(zlib.deflateRawSync(body).length + 50);
});

async function encodingFor(page: CompressedHtml, accepted: string | undefined) {
  const app = Fastify();
  app.get("/", (req, reply) => sendHtml(req, reply, page));
  const res = await app.inject({
    url: "/",
    headers: accepted === undefined ? {} : { "accept-encoding": accepted },
  });
  await app.close();
  return res.headers["content-encoding"];
}

test("a joined page goes gzipped to a browser that takes gzip; a page compressed once, brotli", async () => {
  const joined = joinedPage([head, deflateOnce(styles), body]);
  const once = compress(Buffer.concat([head, styles, body]).toString());
  const chromium = "gzip, deflate, br, zstd";
  expect(await encodingFor(joined, chromium)).toBe("gzip");
  expect(await encodingFor(once, chromium)).toBe("br");
  expect(await encodingFor(joined, "br")).toBe("br");
  expect(await encodingFor(once, "gzip")).toBe("gzip");
  expect(await encodingFor(joined, undefined)).toBeUndefined();
});
