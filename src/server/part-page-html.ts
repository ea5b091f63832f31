import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PAGE_END, PAGE_START, paths } from "../contract/paths";
import type { PartPage } from "../contract/parts";
import {
  deflateOnce,
  joinedPage,
  replaceBetween,
  type CompressedHtml,
  type ServerRender,
} from "./html-pages";
import { cutHead, escapeHtml, headTags, headTop } from "./page-head";

/**
 * The HTML of a part's public page (`/parts/{slug}`, docs/catalog.md "Part pages"): the build's
 * part shell (`shells/part.html`) with the page rendered by the server-side bundle in its place,
 * its own title, description, canonical address, Open Graph tags and structured data (JSON-LD
 * `Product` with its `Offer`, and a `BreadcrumbList`), and a preload of the API answer the app
 * asks for as it starts. One render per cached answer (the catalog's read cache holds the answer;
 * a product change clears it, and with it this page).
 */
export function partPageHtml(opts: {
  webDistDir: string;
  publicUrl: string;
  renderer: () => Promise<ServerRender | undefined>;
  onError: (err: unknown) => void;
}) {
  const file = path.join(opts.webDistDir, "shells", "part.html");
  // Cut once: each page joins its own head and body to the shell's 130 KB of styles as bytes (as
  // a string, the styles were copied and encoded again for every page: 2 ms of each first view),
  // and the styles are deflated once for every page's gzip (joinedPage).
  const cut = existsSync(file) ? cutHead(readFileSync(file, "utf8"), file) : undefined;
  const shell = cut && { ...cut, styles: deflateOnce(Buffer.from(cut.styles)) };
  const rendered = new WeakMap<Buffer, Promise<CompressedHtml | undefined>>();

  async function render(answer: Buffer): Promise<CompressedHtml | undefined> {
    const ssr = await opts.renderer();
    if (!shell || !ssr) return undefined;
    const part = JSON.parse(answer.toString("utf8")) as PartPage;
    const url = paths.part.to(part.slug);
    const page = await ssr.renderPart(url, part);
    const title = page.meta?.title ?? part.name;
    const description = page.meta?.description ?? part.shortDescription;
    const meta = {
      title,
      description,
      url: `${opts.publicUrl}${url}`,
      image: new URL(part.img, opts.publicUrl).href,
      type: "product",
    };
    const head = [
      page.pictures,
      `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(`/api${url}`)}">`,
      ...partJsonLd(part, opts.publicUrl).map(
        (data) => `<script type="application/ld+json">${data}</script>`,
      ),
    ].filter(Boolean);
    return joinedPage([
      Buffer.from(headTop(shell.top, meta)),
      shell.styles,
      Buffer.from(
        headTags(meta, head) + replaceBetween(shell.rest, PAGE_START, PAGE_END, page.html),
      ),
    ]);
  }

  return {
    /**
     * The page for a part's cached API answer; undefined without the build's shell and renderer
     * (a development server), or when the render fails (the app renders it in the browser).
     */
    page(answer: Buffer): Promise<CompressedHtml | undefined> {
      let html = rendered.get(answer);
      if (!html) {
        html = render(answer).catch((err: unknown) => {
          opts.onError(err);
          return undefined;
        });
        rendered.set(answer, html);
      }
      return html;
    },
  };
}

/**
 * The part as schema.org structured data: the `Product` (its brand, pictures and attributes as
 * `additionalProperty` values) with its `Offer` (the list price, the store's currency, in stock
 * or not) and the page's `BreadcrumbList`, each as JSON with `<`
 * escaped so no product text can close the script element.
 */
export function partJsonLd(part: PartPage, publicUrl: string): string[] {
  const url = `${publicUrl}${paths.part.to(part.slug)}`;
  const product = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: part.name,
    description: part.shortDescription,
    sku: part.partNumber,
    mpn: part.partNumber,
    brand: { "@type": "Brand", name: part.brand },
    category: part.category,
    image: [new URL(part.img, publicUrl).href, ...part.images.map((i) => i.url)],
    url,
    ...(part.attributes.length > 0 && {
      additionalProperty: part.attributes.map((a) => ({
        "@type": "PropertyValue",
        name: a.name,
        value: a.value,
        ...(a.unit && { unitText: a.unit }),
      })),
    }),
    offers: {
      "@type": "Offer",
      url,
      price: part.price.toFixed(2),
      priceCurrency: part.currency,
      availability: `https://schema.org/${part.inStock ? "InStock" : "OutOfStock"}`,
      itemCondition: "https://schema.org/NewCondition",
    },
  };
  const trail = [
    ["Home", `${publicUrl}${paths.home}`],
    ["All products", `${publicUrl}${paths.allProducts}`],
    [
      part.category,
      `${publicUrl}${paths.allProducts}?category=${encodeURIComponent(part.category)}`,
    ],
    [part.partNumber, url],
  ];
  const breadcrumbs = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map(([name, item], i) => ({
      "@type": "ListItem",
      position: i + 1,
      name,
      item,
    })),
  };
  return [product, breadcrumbs].map((data) => JSON.stringify(data).replace(/</g, "\\u003c"));
}
