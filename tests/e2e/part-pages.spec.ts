import { expect, test } from "./fixtures";

// A part's public page (docs/catalog.md "Part pages"): rendered by the server for anyone, found
// by search engines through the sitemap, and where a visitor's product card leads.

const DISC = "/parts/pw-bk-3001-ventilated-brake-disc-caliper-kit";
const DISC_NAME = "Ventilated Brake Disc & Caliper Kit";

interface JsonLd {
  "@type": string;
  [key: string]: unknown;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the part page arrives whole: title, canonical address, Product and breadcrumbs as JSON-LD, the vehicles it fits", async ({
    page,
    baseURL,
  }) => {
    const res = await page.goto(DISC);
    expect(res?.status()).toBe(200);
    // Chromium reads the page's gzip joined from pieces (html-pages.ts, joinedPage).
    expect(res?.headers()["content-encoding"]).toBe("gzip");
    await expect(page).toHaveTitle(`${DISC_NAME} PW-BK-3001 · PartsWorks`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${baseURL}${DISC}`,
    );
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "product");
    const data = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (json) => JSON.parse(json) as JsonLd,
    );
    const product = data.find((d) => d["@type"] === "Product")!;
    const api = (await (await page.request.get(`/api${DISC}`)).json()) as { price: number };
    expect(product).toMatchObject({
      name: DISC_NAME,
      sku: "PW-BK-3001",
      url: `${baseURL}${DISC}`,
      offers: {
        "@type": "Offer",
        price: api.price.toFixed(2),
        priceCurrency: "USD",
        availability: "https://schema.org/InStock",
      },
    });
    const breadcrumbs = data.find((d) => d["@type"] === "BreadcrumbList")!;
    expect((breadcrumbs.itemListElement as { name: string }[]).map((e) => e.name)).toEqual([
      "Home",
      "All products",
      "Brakes",
      "PW-BK-3001",
    ]);
    // The page itself, before any script: the facts, in stock (never how many), the numbers it
    // replaces and the fitment table by make and model.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(DISC_NAME);
    await expect(page.getByTestId("availability")).toHaveText("In stock");
    await expect(page.getByText("List price", { exact: true })).toBeVisible();
    await expect(page.getByText("Available quantity")).toHaveCount(0);
    await expect(page.getByTestId("cross-references")).toContainText("04465-02220");
    const fits = page.getByTestId("fits-vehicles");
    await expect(fits).toContainText("Volkswagen Golf");
    await expect(fits).toContainText("2013–2020 · Front");
    // Its brand (the store's own) and attributes, in the page and in the Product's data.
    await expect(page.getByTestId("brand")).toHaveText("PartsWorks");
    const specs = page.getByTestId("specifications").getByRole("row");
    await expect(specs.first()).toHaveText("Diameter300 mm");
    await expect(specs.filter({ hasText: "Vent type" })).toHaveText("Vent typeVented");
    expect(product.brand).toEqual({ "@type": "Brand", name: "PartsWorks" });
    expect(product.additionalProperty).toEqual(
      expect.arrayContaining([
        { "@type": "PropertyValue", name: "Diameter", value: "300", unitText: "mm" },
        { "@type": "PropertyValue", name: "Vent type", value: "Vented" },
      ]),
    );
  });

  test("an old or differently written address leads to the part's own; an unknown part is 404", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/parts/PW-BK-3001-Brake-Kit");
    expect(page.url()).toBe(`${baseURL}${DISC}`);
    const missing = await page.goto("/parts/pw-zz-0000-no-such-part");
    expect(missing?.status()).toBe(404);
  });

  test("the sitemap is an index: the public pages and every part page", async ({
    request,
    baseURL,
  }) => {
    const index = await (await request.get("/sitemap.xml")).text();
    expect(index).toContain(`<loc>${baseURL}/sitemaps/pages.xml</loc>`);
    expect(index).toContain(`<loc>${baseURL}/sitemaps/parts-1.xml</loc>`);
    const parts = await request.get("/sitemaps/parts-1.xml");
    expect(parts.headers()["content-type"]).toContain("application/xml");
    expect(await parts.text()).toContain(`<loc>${baseURL}${DISC}</loc>`);
  });
});

test("a visitor opens a part from All products, sees whether it fits their car, and Order now asks them to sign in", async ({
  page,
}) => {
  const year = 2016;
  const makes = (await (await page.request.get(`/api/vehicles/makes?year=${year}`)).json()) as {
    id: number;
    name: string;
  }[];
  const make = makes.find((m) => m.name === "Volkswagen")!.id;
  const models = (await (
    await page.request.get(`/api/vehicles/models?year=${year}&make=${make}`)
  ).json()) as { id: number; name: string }[];
  const model = models.find((m) => m.name === "Golf")!.id;
  // The shopper chose their car earlier (the vehicle selector remembers it in this browser).
  await page.addInitScript((v) => localStorage.setItem("partsworks.vehicle", JSON.stringify(v)), {
    year,
    make,
    model,
  });
  await page.goto("/allproducts?q=PW-BK-3001");
  await page.getByRole("link", { name: DISC_NAME, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${DISC}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(DISC_NAME);
  await expect(page.getByTestId("fit")).toContainText("Fits your 2016 Volkswagen Golf");
  await page.getByTestId("order-now").click();
  await expect(page).toHaveURL(/\/login/);
});
