import { expect, test } from "./fixtures";

// What search engines and link previews get (src/server/web-app.ts, scripts/prerender-pages.ts).

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("each public page arrives with its own description, canonical link and Open Graph tags", async ({
    page,
    baseURL,
  }) => {
    const descriptions = new Set<string>();
    for (const [path, canonical] of [
      ["/", "/"],
      ["/home", "/"],
      ["/allproducts", "/allproducts"],
      ["/blogs", "/blogs"],
      ["/review", "/review"],
      ["/myprotfolio", "/myprotfolio"],
    ] as const) {
      await page.goto(path);
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      expect(description?.length, path).toBeGreaterThan(50);
      descriptions.add(description!);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        "href",
        `${baseURL}${canonical}`,
      );
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
        "content",
        `${baseURL}${canonical}`,
      );
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
        "content",
        await page.title(),
      );
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
        "content",
        description!,
      );
    }
    expect(descriptions.size, "every page has a description of its own").toBe(5);
  });

  test("All products carries its products as JSON-LD structured data", async ({ page }) => {
    // The page is sent with the products it last read when a fresh read is slow (other tests
    // add products meanwhile): the next view has them.
    await expect(async () => {
      await page.goto("/allproducts");
      const json = await page
        .locator('script[type="application/ld+json"]')
        .textContent({ timeout: 5_000 });
      const data = JSON.parse(json!) as {
        "@type": string;
        itemListElement: { item: { "@type": string; name: string; offers: { price: string } } }[];
      };
      expect(data["@type"]).toBe("ItemList");
      const listed = (await (await page.request.get("/api/products?limit=12")).json()) as {
        name: string;
        price: number;
      }[];
      expect(data.itemListElement.map((e) => e.item.name)).toEqual(listed.map((p) => p.name));
      expect(data.itemListElement[0]!.item.offers.price).toBe(listed[0]!.price.toFixed(2));
    }).toPass({ timeout: 30_000 });
  });
});

test("the sitemap lists the public pages and the manifest describes the store", async ({
  request,
  baseURL,
}) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(await sitemap.text()).toContain(`<loc>${baseURL}/sitemaps/pages.xml</loc>`);
  const pages = await request.get("/sitemaps/pages.xml");
  expect(await pages.text()).toContain(`<loc>${baseURL}/allproducts</loc>`);
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
  expect(await manifest.json()).toMatchObject({ short_name: "PartsWorks", start_url: "/" });
});

test("moving between pages in the app keeps the canonical link and description right", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  // The app is running: it has replaced the pre-rendered page (which shows Login too).
  await expect(page.locator("html[data-live]")).toBeAttached();
  const landing = await page.locator('meta[name="description"]').getAttribute("content");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blogs" }).click();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/blogs`);
  await expect(page.locator('meta[name="description"]')).not.toHaveAttribute("content", landing!);
});
