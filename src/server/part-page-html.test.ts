import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PAGE_END, PAGE_START } from "../contract/paths";
import type { PartPage } from "../contract/parts";
import type { ServerRender } from "./html-pages";
import { partPageHtml } from "./part-page-html";

const part: PartPage = {
  _id: "5b1c0d5e-3f3e-4d6a-9a55-0c6a4f1e2b11",
  slug: "pw-bd-2801-disc-x",
  name: 'Disc </script><script>alert("x")</script> $& $`',
  partNumber: "PW-BD-2801",
  category: "Brakes",
  img: "/images/products/brake-disc.svg",
  shortDescription: "Vented front disc",
  price: 45.5,
  currency: "EUR",
  breaks: [],
  minimumOrder: 2,
  retailMinimum: 1,
  packSize: 1,
  warranty: 24,
  coreDeposit: null,
  weightGrams: 0,
  lengthMm: null,
  widthMm: null,
  heightMm: null,
  inStock: false,
  backorder: null,
  crossReferences: [],
  applications: [],
  brand: "PartsWorks",
  attributes: [],
  images: [],
  documents: [],
};

let root: string;
let renders = 0;
const renderer = async () =>
  ({
    renderPart: async (url: string, p: PartPage) => {
      renders += 1;
      return {
        pictures: '<link rel="preload" as="image" href="/images/products/brake-disc.svg"/>',
        html: `<main data-url="${url}"><h1>${p.partNumber}</h1></main>`,
        meta: { title: `${p.partNumber} · PartsWorks`, description: p.shortDescription },
      };
    },
  }) as unknown as ServerRender;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "part-page-test-"));
  await fs.mkdir(path.join(root, "shells"));
  await fs.writeFile(
    path.join(root, "shells", "part.html"),
    `<html><head><title>PartsWorks</title><meta name="description" content="The store" />` +
      `<meta property="og:type" content="website" /></head>` +
      `<body><div id="root">${PAGE_START}<p>skeleton</p>${PAGE_END}</div></body></html>`,
  );
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

test("a part page: the rendered page in the shell, its own head, structured data that parses, rendered once per answer", async () => {
  const errors: unknown[] = [];
  const pages = partPageHtml({
    webDistDir: root,
    publicUrl: "https://parts.example",
    renderer,
    onError: (err) => errors.push(err),
  });
  const answer = Buffer.from(JSON.stringify(part));
  const page = await pages.page(answer);
  const html = page!.identity.toString("utf8");
  expect(html).toContain('<main data-url="/parts/pw-bd-2801-disc-x"><h1>PW-BD-2801</h1></main>');
  expect(html).not.toContain("skeleton");
  expect(html).toContain("<title>PW-BD-2801 · PartsWorks</title>");
  expect(html).toContain('<meta name="description" content="Vented front disc" />');
  expect(html).toContain(
    '<link rel="canonical" href="https://parts.example/parts/pw-bd-2801-disc-x" />',
  );
  expect(html).toContain('<meta property="og:type" content="product" />');
  expect(html).not.toContain('content="website"');
  expect(html).toContain(
    '<meta property="og:image" content="https://parts.example/images/products/brake-disc.svg" />',
  );
  expect(html).toContain(
    '<link rel="preload" as="fetch" crossorigin href="/api/parts/pw-bd-2801-disc-x">',
  );
  // The head holds the page's picture preload, then its data.
  expect(html.indexOf('as="image"')).toBeLessThan(html.indexOf("</head>"));
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)];
  expect(scripts).toHaveLength(2);
  const [product, breadcrumbs] = scripts.map((m) => JSON.parse(m[1]!));
  expect(product).toEqual({
    "@context": "https://schema.org",
    "@type": "Product",
    name: part.name,
    description: "Vented front disc",
    sku: "PW-BD-2801",
    mpn: "PW-BD-2801",
    brand: { "@type": "Brand", name: "PartsWorks" },
    category: "Brakes",
    image: ["https://parts.example/images/products/brake-disc.svg"],
    url: "https://parts.example/parts/pw-bd-2801-disc-x",
    offers: {
      "@type": "Offer",
      url: "https://parts.example/parts/pw-bd-2801-disc-x",
      price: "45.50",
      priceCurrency: "EUR",
      availability: "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
    },
  });
  expect(breadcrumbs["@type"]).toBe("BreadcrumbList");
  expect(breadcrumbs.itemListElement.map((e: { name: string }) => e.name)).toEqual([
    "Home",
    "All products",
    "Brakes",
    "PW-BD-2801",
  ]);
  // The same answer is not rendered again; a new answer (the part changed) is.
  expect(await pages.page(answer)).toBe(page);
  expect(renders).toBe(1);
  await pages.page(Buffer.from(JSON.stringify({ ...part, inStock: true })));
  expect(renders).toBe(2);
  expect(errors).toEqual([]);
});

test("structured data: the part's brand, its pictures, and its attributes as PropertyValue entries", async () => {
  const pages = partPageHtml({
    webDistDir: root,
    publicUrl: "https://parts.example",
    renderer,
    onError: (err) => {
      throw err;
    },
  });
  const specified: PartPage = {
    ...part,
    brand: "Brakeworks",
    attributes: [
      { name: "Diameter", value: "280", unit: "mm" },
      { name: "Vent type", value: "Vented </script>", unit: null },
    ],
    images: [{ title: "Side view", url: "https://cdn.example/side.jpg" }],
    documents: [{ title: "Fitting guide", url: "https://cdn.example/guide.pdf" }],
  };
  const html = (await pages.page(Buffer.from(JSON.stringify(specified))))!.identity.toString(
    "utf8",
  );
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)];
  const product = JSON.parse(scripts[0]![1]!);
  expect(product.brand).toEqual({ "@type": "Brand", name: "Brakeworks" });
  expect(product.image).toEqual([
    "https://parts.example/images/products/brake-disc.svg",
    "https://cdn.example/side.jpg",
  ]);
  expect(product.additionalProperty).toEqual([
    { "@type": "PropertyValue", name: "Diameter", value: "280", unitText: "mm" },
    { "@type": "PropertyValue", name: "Vent type", value: "Vented </script>" },
  ]);
  // A value cannot close the script element.
  expect(html).not.toContain("Vented </script>");
});

test("without the build's shell or renderer, or when the render fails, there is no page (the app renders it)", async () => {
  const errors: unknown[] = [];
  const answer = Buffer.from(JSON.stringify(part));
  const noBundle = partPageHtml({
    webDistDir: root,
    publicUrl: "https://parts.example",
    renderer: async () => undefined,
    onError: (err) => errors.push(err),
  });
  expect(await noBundle.page(answer)).toBeUndefined();
  const failing = partPageHtml({
    webDistDir: root,
    publicUrl: "https://parts.example",
    renderer: async () =>
      ({
        renderPart: async () => {
          throw new Error("cannot render");
        },
      }) as unknown as ServerRender,
    onError: (err) => errors.push(err),
  });
  expect(await failing.page(answer)).toBeUndefined();
  expect(errors).toHaveLength(1);
});
