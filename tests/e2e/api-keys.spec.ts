import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { apiKeyMessages as say } from "../../src/contract/api-keys";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin makes an API key for another system on the API keys page (on a phone), copies it,
// and the system calls the API with it: its scope answers, another scope is refused. On a
// desktop the admin rotates it (the old key stops, the new one works) and revokes it, after
// which the system is refused with 401 (docs/api-keys.md).

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

/** axe's WCAG 2.2 AA rules find nothing, and no table scrolls sideways. */
async function expectAccessible(page: Page, where: string) {
  await expect(page.locator(".loading")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"])
    .analyze();
  const found = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`);
  expect(found, `axe on ${where}`).toEqual([]);
  const sideways = await page.evaluate(() =>
    [...document.querySelectorAll("table")].some(
      (t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth,
    ),
  );
  expect(sideways, `${where}: a table scrolls sideways`).toBe(false);
}

test("an admin creates a key, a system calls with it, the admin rotates and revokes it", async ({
  page,
  baseURL,
  playwright,
}) => {
  const name = `Factory ERP ${Date.now()}-${process.pid}`;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signInThroughApi(page, demoAdmin);
  // The other system: no cookie, only the key.
  const system = await playwright.request.newContext({ baseURL });
  const asSystem = (key: string) => ({ authorization: `Bearer ${key}` });

  await page.setViewportSize(PHONE);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");

  // The create dialog, with the contract's words for what is missing.
  await page.getByRole("button", { name: "Create API key" }).click();
  const create = page.getByRole("dialog", { name: "Create an API key" });
  await create.getByLabel("Name").fill(name);
  await create.getByRole("button", { name: "Create key" }).click();
  await expect(create.getByText(say.scopes)).toBeVisible();
  await expectAccessible(page, "the create dialog");
  await create.getByRole("checkbox", { name: /^orders:read/ }).check();
  await create.getByLabel("Rate limit (requests a minute)").fill("0");
  await create.getByRole("button", { name: "Create key" }).click();
  await expect(create.getByText(say.rate)).toBeVisible();
  await create.getByLabel("Rate limit (requests a minute)").fill("120");
  await create.getByRole("button", { name: "Create key" }).click();

  // Shown once, with a copy button.
  const shown = page.getByRole("dialog", { name: say.created(name) });
  await expect(shown.getByText(say.copyNow)).toBeVisible();
  await shown.getByRole("button", { name: "Copy key" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^pw_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}$/);
  await expect(shown.getByTestId("issued-api-key")).toHaveText(key);
  await expectAccessible(page, "the new key's dialog");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 11));
  await expect(row).toContainText("orders:read");
  await expect(row.getByTestId("api-key-status")).toHaveText("Active");
  // The key itself is nowhere on the page any more.
  await expect(page.getByText(key)).toHaveCount(0);
  await expectAccessible(page, "the list on a phone");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );

  // The system calls with it: its scope answers, another is refused.
  const allowed = await system.get("/api/orders/all", { headers: asSystem(key) });
  expect(allowed.status()).toBe(200);
  const refused = await system.post("/api/products", { headers: asSystem(key), data: {} });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toBe(say.needsOneOf(["catalog:write"]));

  // On a desktop: the list says it was used; rotate it behind the confirm dialog.
  await page.setViewportSize(DESKTOP);
  await page.reload();
  const table = page.getByRole("table", { name: "API keys" });
  const desktopRow = table.getByRole("row").filter({ hasText: name });
  await expect(desktopRow.getByTestId("api-key-last-used")).not.toHaveText("Never");
  await expectAccessible(page, "the list on a desktop");
  await desktopRow.getByRole("button", { name: `Rotate ${name}` }).click();
  const rotate = page.getByRole("dialog", { name: say.rotateTitle(name) });
  await expect(rotate).toContainText(say.rotateBody);
  await rotate.getByRole("button", { name: "Rotate key" }).click();
  const rotated = page.getByRole("dialog", { name: say.rotated(name) });
  await expect(rotated.getByText(say.copyNow)).toBeVisible();
  const newKey = (await rotated.getByTestId("issued-api-key").textContent())!.trim();
  expect(newKey).not.toBe(key);
  await rotated.getByRole("button", { name: "Done" }).click();
  expect((await system.get("/api/orders/all", { headers: asSystem(key) })).status()).toBe(401);
  expect((await system.get("/api/orders/all", { headers: asSystem(newKey) })).status()).toBe(200);

  // Revoke it, behind the confirm dialog: the system is refused from then on.
  await desktopRow.getByRole("button", { name: `Revoke ${name}` }).click();
  const revoke = page.getByRole("dialog", { name: say.revokeTitle(name) });
  await expect(revoke).toContainText(say.revokeBody);
  await revoke.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(say.revokedDone(name))).toBeVisible();
  await expect(desktopRow.getByTestId("api-key-status")).toHaveText("Revoked");
  await expect(desktopRow.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  const after = await system.get("/api/orders/all", { headers: asSystem(newKey) });
  expect(after.status()).toBe(401);
  expect((await after.json()).message).toBe(say.revoked);
  await system.dispose();
});
