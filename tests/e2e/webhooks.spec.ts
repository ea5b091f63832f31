import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { webhookMessages as say } from "../../src/contract/webhooks";
import { demoAdmin, E2E_SHIP_TO, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// docs/webhooks.md: an admin registers a local receiver on the Webhooks page (its secret shown
// once), a customer orders and pays, the receiver gets the order's events in order, each signed
// with that secret (checked here with node:crypto alone); the admin replays one from the
// delivery log (same webhook-id), on a phone and a desktop, and deletes the endpoint.

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

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A receiver on a free port of 127.0.0.1 that keeps every request and answers 204. */
function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      received.push({
        headers: req.headers,
        body,
        payload: JSON.parse(body) as Received["payload"],
      });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/partsworks-hooks`,
        received,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/** The Standard Webhooks check, written here from the specification. */
function signedWith(secret: string, r: Received): boolean {
  const id = r.headers["webhook-id"] as string;
  const timestamp = r.headers["webhook-timestamp"] as string;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${r.body}`).digest("base64");
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && String(r.headers["webhook-signature"]).split(" ").includes(`v1,${mac}`);
}

test("an admin registers an endpoint, an order's events arrive signed and in order, one is replayed", async ({
  page,
  browser,
  baseURL,
}) => {
  const receiver = await startReceiver();
  try {
    await signInThroughApi(page, demoAdmin);
    await page.setViewportSize(PHONE);
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");

    // Add: the contract's words for what is missing, then the secret, shown once.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const add = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await add.getByLabel("URL").fill(receiver.url);
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await expect(add.getByText(say.events)).toBeVisible();
    await expectAccessible(page, "the add dialog");
    for (const type of ["order.placed", "order.paid", "invoice.issued"]) {
      await add.getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}`) }).check();
    }
    await add.getByLabel("Description (optional)").fill("E2E receiver");
    await add.getByRole("button", { name: "Add endpoint" }).click();
    const shown = page.getByRole("dialog", { name: say.created });
    await expect(shown.getByText(say.copyNow)).toBeVisible();
    const secret = (await shown.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await shown.getByRole("button", { name: "Done" }).click();
    const row = page.getByTestId("webhook-endpoint-row").filter({ hasText: receiver.url });
    await expect(row.getByTestId("webhook-endpoint-status")).toHaveText("Enabled");
    await expect(row).toContainText("order.paid");
    await expectAccessible(page, "the endpoints on a phone");

    // A customer orders and pays with the test card, through the API as the browser would.
    const shopper = await browser.newPage({ baseURL });
    await signUpThroughApi(shopper);
    const [product] = (await (await shopper.request.get("/api/products?q=spark plug")).json()) as {
      _id: string;
      minimumOrder: number;
    }[];
    const placed = await shopper.request.post("/api/orders", {
      data: {
        productId: product!._id,
        orderQty: product!.minimumOrder,
        phonrNo: "07700900123",
        Address: "3 Depot Street",
        shipTo: E2E_SHIP_TO,
      },
    });
    expect(placed.status()).toBe(201);
    const order = (await placed.json()).order as { _id: string; number: string };
    const { clientSecret } = await (
      await shopper.request.post("/api/create-payment-intent", { data: { orderId: order._id } })
    ).json();
    const { transactionId } = await (
      await shopper.request.post("/api/payments/test-card/confirm", {
        data: { clientSecret, number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
      })
    ).json();
    expect(
      (await shopper.request.patch(`/api/orders/${order._id}`, { data: { transactionId } })).ok(),
    ).toBe(true);
    await shopper.close();

    // Its events (other journeys order meanwhile: only this order's are looked at), in order.
    const ours = () => receiver.received.filter((r) => r.payload.data.orderId === order._id);
    await expect
      .poll(() => ours().map((r) => r.payload.type), { timeout: 20_000 })
      .toEqual(["order.placed", "order.paid", "invoice.issued"]);
    for (const r of ours()) expect(signedWith(secret, r), r.payload.type).toBe(true);
    const [first, paid] = ours();
    expect(first!.payload.data).toMatchObject({ number: order.number, status: "unpaid" });
    expect(paid!.payload.data).toMatchObject({ number: order.number, status: "paid" });
    const messageId = first!.headers["webhook-id"] as string;

    // The delivery log on a desktop: the placed event delivered; Replay sends it again.
    await page.setViewportSize(DESKTOP);
    await row.getByRole("button", { name: `Deliveries to ${receiver.url}` }).click();
    await expect(
      page.getByRole("heading", { name: `Deliveries to ${receiver.url}` }),
    ).toBeVisible();
    await page.getByRole("button", { name: `Details of order.placed ${messageId}` }).click();
    const details = page.getByRole("dialog", { name: "Delivery of order.placed" });
    await expect(details.getByTestId("webhook-detail-status")).toHaveText("Delivered");
    await expect(details.getByTestId("webhook-request-body")).toContainText(order._id);
    await expect(details.getByText(/answered 204/)).toHaveCount(1);
    await details.getByRole("button", { name: "Replay" }).click();
    await expect(page.getByText(say.replayed)).toBeVisible();
    await expect
      .poll(() => receiver.received.filter((r) => r.headers["webhook-id"] === messageId).length, {
        timeout: 20_000,
      })
      .toBe(2);
    const again = receiver.received.filter((r) => r.headers["webhook-id"] === messageId)[1]!;
    expect(again.body).toBe(first!.body);
    expect(signedWith(secret, again)).toBe(true);
    await expect(details.getByText(/answered 204/)).toHaveCount(2);
    await expectAccessible(page, "a delivery's details");
    await details.getByRole("button", { name: "Close" }).click();
    // The toast fades on its own (axe would judge it mid-fade).
    await expect(page.getByText(say.replayed)).toBeHidden({ timeout: 15_000 });

    // On a phone the log fits the screen too.
    await page.setViewportSize(PHONE);
    await expect(page.getByTestId("webhook-delivery-row").first()).toBeVisible();
    await expectAccessible(page, "the delivery log on a phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // Delete, with the confirm dialog.
    await row.getByRole("button", { name: `Delete ${receiver.url}` }).click();
    const confirm = page.getByRole("dialog", { name: say.deleteTitle });
    await confirm.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(row).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
