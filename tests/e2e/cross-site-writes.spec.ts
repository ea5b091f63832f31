import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Request } from "@playwright/test";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// Penetration test of 75cca6d, finding 3: a page on another port of the same host made a
// signed-in admin's browser import a CSV (a product at $0.01) through `/%61pi/…`, which skipped
// the Origin check. Same host, other port: the same site, so the SameSite=Lax cookie goes along.

const header =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references,fitment";

test("a page of another origin on the same host cannot make an admin's browser write", async ({
  page,
  baseURL,
}) => {
  const partNumber = `CSRF-${Date.now()}-${process.pid}`;
  const csv = `${header}\n${partNumber},Penny Part,Bargain,Brakes,0.01,5,1,0,/images/products/oil-filter.svg,,\n`;
  const targets = [
    `${baseURL}/api/admin/product-imports`,
    `${baseURL}/%61pi/admin/product-imports`,
  ];
  const attack = `<!doctype html><title>prize</title><script>
    const sends = ${JSON.stringify(targets)}.map((url) => {
      const form = new FormData();
      form.append("file", new Blob([${JSON.stringify(csv)}], { type: "text/csv" }), "p.csv");
      return fetch(url, { method: "POST", mode: "no-cors", credentials: "include", body: form });
    });
    Promise.allSettled(sends).then(() => { document.title = "sent"; });
  </script>`;
  const evil = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(attack);
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  try {
    await signInThroughApi(page, demoAdmin);
    // The attacker's page in another tab of the same browser (the admin's cookies go along).
    // Its console shows the store's refusals, blocked by our Cross-Origin-Resource-Policy too:
    // they are the attacker's errors, not the store's, so this tab is not the checked `page`.
    const evilTab = await page.context().newPage();
    // Each attempt ends in a refusal, or in a failed request when the store answers before the
    // browser has sent the whole body (it refuses in its first hook, unread); one outcome each.
    const outcomes = new Map<Request, number | "failed">();
    evilTab.on("response", (res) => {
      if (res.url().includes("product-imports")) outcomes.set(res.request(), res.status());
    });
    evilTab.on("requestfailed", (req) => {
      if (req.url().includes("product-imports") && !outcomes.has(req)) outcomes.set(req, "failed");
    });
    await evilTab.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    await expect(evilTab).toHaveTitle("sent");
    await expect.poll(() => outcomes.size).toBe(2);
    for (const outcome of outcomes.values()) expect([400, 403, "failed"]).toContain(outcome);
    // Nothing was written: the part is nowhere in the catalog.
    const found = await page.request.get(`${baseURL}/api/products?q=${partNumber}`);
    expect(await found.json()).toEqual([]);
  } finally {
    evil.close();
  }
});
