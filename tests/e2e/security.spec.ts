import { demoAdmin, signInThroughApi, signUpInBrowser } from "./auth-helpers";
import { expect, test } from "./fixtures";

const pages = ["/", "/allproducts", "/blogs", "/review", "/myprotfolio", "/login", "/signup", "/x"];

test("every page is served with a CSP that allows no inline script, and the security headers", async ({
  page,
}) => {
  for (const path of pages) {
    const res = await page.goto(path);
    const headers = res!.headers();
    const csp = headers["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src "));
    expect(scriptSrc, path).toBeDefined();
    expect(scriptSrc, path).not.toContain("unsafe-inline");
    expect(scriptSrc, path).not.toContain("unsafe-eval");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    // The page really runs under it (a violation would be a console error, failing the test).
    await expect(page.locator("main")).toBeVisible();
  }
});

test("the session cookie is httpOnly and SameSite=Lax", async ({ page, context }) => {
  // Through the form: the subject is what the browser keeps from the sign-up's answer.
  await signUpInBrowser(page);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name.includes("session_token"));
  expect(session).toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe("Lax");
  // Scripts on the page cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain("session_token");
});

test("product text containing HTML renders as text and runs no script", async ({ page }) => {
  await signInThroughApi(page, demoAdmin);
  const name = `Probe <img src=x onerror="window.__xss=1"> ${Date.now()}`;
  const created = await page.request.post("/api/products", {
    data: {
      name,
      partNumber: `XSS-${Date.now()}-${process.pid}`,
      category: "Other",
      price: 1,
      minimumOrder: 1,
      availableQuantity: 1,
      warranty: 0,
      shortDescription: '<script>window.__xss=2</script><b onmouseover="window.__xss=3">bold</b>',
      img: "/images/products/oil-filter.svg",
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).product._id;
  try {
    await page.goto(`/products/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(page.getByText("<script>window.__xss=2</script>", { exact: false })).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator("main b")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  } finally {
    await page.request.delete(`/api/products/${id}`);
  }
});
