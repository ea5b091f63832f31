import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { placeTestOrder } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { eventually, waitForMail } from "../../../tests/support/mailbox";
import { watchQueries } from "../../../tests/support/query-spy";
import { injectAs } from "../../../tests/support/requests";
import { storeForTests } from "../../../tests/support/store";
import { createAnotherProcess } from "../../../tests/support/test-app";
import {
  webhookMessages as say,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointIssued,
} from "../../contract/webhooks";
import { adminAuditLog } from "../audit/tables";
import { checkedAddresses, isPrivateAddress } from "./destination";
import { insertEvent, recordWebhookEvent } from "./outbox";
import { createWebhookService } from "./service";
import { createWebhookSender } from "./sender";
import { messageId, RETRY_DELAYS_MS, retryDelayMs, signature, signedHeaders } from "./signing";
import { webhookDeliveries, webhookEndpoints, webhookOutbox } from "./tables";

// Outgoing webhooks (docs/webhooks.md): signing, the retry schedule, refused addresses, the
// admin's routes, the outbox (written with the change, sent only after its commit, never in the
// request), retries, and an endpoint disabled after persistent failure with an email to admins.

// ---------------------------------------------------------------------------------------------
// A local receiver: records each request; answers what `answer` says (default 204).

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer = (r: Received, res: http.ServerResponse) => void;

function startReceiver() {
  const received: Received[] = [];
  let answer: Answer = (_r, res) => res.writeHead(204).end();
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const r = { headers: req.headers, body };
      received.push(r);
      answer(r, res);
    });
  });
  return new Promise<{
    url: string;
    received: Received[];
    answer(a: Answer): void;
    close(): Promise<void>;
  }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        received,
        answer: (a) => (answer = a),
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Verifies a delivery as a receiver would, with node:crypto alone (not the store's code). */
function verifies(r: Received, secret: string): boolean {
  const id = r.headers["webhook-id"] as string;
  const ts = r.headers["webhook-timestamp"] as string;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${r.body}`).digest("base64");
  return (r.headers["webhook-signature"] as string).split(" ").some((s) => s === `v1,${expected}`);
}

// ---------------------------------------------------------------------------------------------

describe("signing and retries", () => {
  test("a signature is base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded secret", () => {
    // The Standard Webhooks specification's own example.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const body = '{"test": 2432232314}';
    expect(signature(secret, id, 1614265330, body)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
    // And computed here independently, for another secret.
    const other = `whsec_${Buffer.from("another key of 24 bytes!").toString("base64")}`;
    const mac = createHmac("sha256", Buffer.from("another key of 24 bytes!"))
      .update(`msg_1.1700000000.{"a":1}`)
      .digest("base64");
    expect(signature(other, "msg_1", 1700000000, '{"a":1}')).toBe(`v1,${mac}`);
    // Two secrets (a rotation's overlap): both signatures, space-separated.
    const headers = signedHeaders([other, secret], "msg_1", 1700000000, '{"a":1}');
    expect(headers["webhook-signature"]).toBe(
      `v1,${mac} ${signature(secret, "msg_1", 1700000000, '{"a":1}')}`,
    );
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
  });

  test("retries wait 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 24 h, then fail: about 3 days", () => {
    const minutes = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelayMs(n)! / 60_000);
    expect(minutes).toEqual([1 / 12, 5, 30, 120, 300, 600, 600, 840, 1440]);
    expect(retryDelayMs(10)).toBeUndefined();
    const days = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 86_400_000;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.1);
  });

  test("the webhook-id is the same for a delivery every time", () => {
    const id = "0b7f0a53-9d1c-4a0e-8c3e-6a1f1f0e2b11";
    expect(messageId(id)).toBe("msg_0b7f0a539d1c4a0e8c3e6a1f1f0e2b11");
  });
});

describe("private addresses", () => {
  test("private, loopback, link-local and other non-public addresses, IPv4 and IPv6", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111"]) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  test("a host name resolving to 127.0.0.1 is refused unless allowed", async () => {
    await expect(checkedAddresses("localhost", false)).rejects.toThrow(
      say.privateAddress("localhost"),
    );
    const allowed = await checkedAddresses("localhost", true);
    expect(allowed.map((a) => a.address)).toContain("127.0.0.1");
    await expect(checkedAddresses("[::1]".slice(1, -1), false)).rejects.toThrow();
    await expect(checkedAddresses("no-such-host.invalid", true)).rejects.toThrow(
      say.unresolved("no-such-host.invalid"),
    );
  });
});

// ---------------------------------------------------------------------------------------------

let receiver: Receiver;
const ADMIN_EMAIL = "webhooks-admin@example.com";

const { t, call, admin, customer } = storeForTests({
  admin: ADMIN_EMAIL,
  shipsToTestAddress: true,
  customers: { customer: {} },
});
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  // Each test starts with no endpoint: nothing of one reaches the next.
  await t.database.db.delete(webhookEndpoints);
  await t.database.db.delete(webhookOutbox);
  receiver.received.length = 0;
  receiver.answer((_r, res) => res.writeHead(204).end());
});

type Method = "GET" | "POST" | "PATCH" | "DELETE";
const asAdmin = (method: Method, url: string, payload?: object) =>
  call(admin, method, `/api${url}`, payload);

async function addEndpoint(
  eventTypes: string[],
  url = receiver.url,
): Promise<WebhookEndpointIssued> {
  const res = await asAdmin("POST", "/webhook-endpoints", { url, eventTypes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookEndpointIssued>();
}

async function placeOrder(): Promise<{ _id: string; number: string }> {
  const product = await insertProduct(t.database.db);
  const res = await placeTestOrder(t.app, customer, product.id, 2);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: { _id: string; number: string } }>().order;
}

const receivedOf = (type: string) =>
  receiver.received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);

describe("endpoints through the API", () => {
  test("bad input is 400 with the contract's words; unknown ids 404", async () => {
    const cases: [object, string][] = [
      [{ url: "ftp://example.com", eventTypes: ["order.placed"] }, say.url],
      [{ url: "not a url", eventTypes: ["order.placed"] }, say.url],
      [{ url: "https://u:p@example.com/", eventTypes: ["order.placed"] }, say.urlCredentials],
      [{ url: receiver.url, eventTypes: [] }, say.events],
      [{ url: receiver.url, eventTypes: ["order.exploded"] }, say.event],
      [{ url: receiver.url, eventTypes: ["order.placed"], extra: 1 }, ""],
      [
        { url: "https://no-such-host.invalid/", eventTypes: ["order.placed"] },
        say.unresolved("no-such-host.invalid"),
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await asAdmin("POST", "/webhook-endpoints", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(res.body).toContain(message);
    }
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await asAdmin("GET", `/webhook-endpoints/${missing}`)).statusCode).toBe(404);
    expect((await asAdmin("GET", "/webhook-endpoints/12")).statusCode).toBe(400);
    expect(
      (await asAdmin("PATCH", `/webhook-endpoints/${missing}`, { enabled: false })).statusCode,
    ).toBe(404);
    expect((await asAdmin("PATCH", `/webhook-endpoints/${missing}`, {})).statusCode).toBe(400);
    expect((await asAdmin("DELETE", `/webhook-endpoints/${missing}`)).statusCode).toBe(404);
    expect((await asAdmin("POST", `/webhook-deliveries/${missing}/replay`)).statusCode).toBe(404);
    expect((await asAdmin("GET", "/webhook-deliveries?status=lost")).statusCode).toBe(400);
    // Customers are refused.
    const res = await call(customer, "GET", "/api/webhook-endpoints");
    expect(res.statusCode).toBe(403);
  });

  test("a private address is refused in production unless the setting allows it", async () => {
    const strict = await createAnotherProcess(t, {
      ADMIN_EMAILS: ADMIN_EMAIL,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "false",
    });
    try {
      for (const url of [
        "http://localhost:9/",
        "http://127.0.0.1:9/",
        "http://[::1]:9/",
        "http://169.254.169.254/",
      ]) {
        const res = await injectAs(strict.app, admin, "POST", "/api/webhook-endpoints", {
          url,
          eventTypes: ["order.placed"],
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ message: string }>().message).toMatch(/private, loopback or link-local/);
      }
    } finally {
      await strict.close();
    }
  });

  test("add, read, change, disable, rotate, delete: each in the audit log; the secret shown once", async () => {
    const made = await addEndpoint(["order.placed", "order.paid"]);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.endpoint).toMatchObject({
      url: receiver.url,
      eventTypes: ["order.placed", "order.paid"],
      status: "enabled",
      previousSecretUntil: null,
    });
    expect(JSON.stringify((await asAdmin("GET", "/webhook-endpoints")).json())).not.toContain(
      made.secret,
    );
    const id = made.endpoint.id;
    const changed = await asAdmin("PATCH", `/webhook-endpoints/${id}`, {
      description: "ERP",
      eventTypes: ["order.paid", "order.placed", "order.shipped"],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<WebhookEndpoint>()).toMatchObject({
      description: "ERP",
      eventTypes: ["order.placed", "order.paid", "order.shipped"],
    });
    const off = await asAdmin("PATCH", `/webhook-endpoints/${id}`, { enabled: false });
    expect(off.json<WebhookEndpoint>()).toMatchObject({
      status: "disabled",
      disabledReason: "admin",
    });
    const on = await asAdmin("PATCH", `/webhook-endpoints/${id}`, { enabled: true });
    expect(on.json<WebhookEndpoint>()).toMatchObject({ status: "enabled", disabledReason: null });
    const rotated = await asAdmin("POST", `/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const issued = rotated.json<WebhookEndpointIssued>();
    expect(issued.secret).not.toBe(made.secret);
    const hours = (Date.parse(issued.endpoint.previousSecretUntil!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await asAdmin("DELETE", `/webhook-endpoints/${id}`)).statusCode).toBe(204);
    expect((await asAdmin("GET", `/webhook-endpoints/${id}`)).statusCode).toBe(404);
    const actions = await t.database.db
      .select({ action: adminAuditLog.action, summary: adminAuditLog.summary })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, id));
    expect(actions.map((a) => a.action).sort()).toEqual(
      [
        "webhook-endpoint.change",
        "webhook-endpoint.change",
        "webhook-endpoint.change",
        "webhook-endpoint.create",
        "webhook-endpoint.delete",
        "webhook-endpoint.rotate-secret",
      ].sort(),
    );
    expect(JSON.stringify(actions)).not.toContain(made.secret);
  });

  test("an API key with webhooks:manage may manage endpoints; another scope may not", async () => {
    const key = async (scopes: string[]) => {
      const res = await asAdmin("POST", "/api-keys", { name: `Hooks ${scopes.join()}`, scopes });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ key: string }>().key;
    };
    const manage = await key(["webhooks:manage"]);
    const read = await key(["orders:read"]);
    const list = (k: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/webhook-endpoints",
        headers: { authorization: `Bearer ${k}` },
      });
    expect((await list(manage)).statusCode).toBe(200);
    expect((await list(read)).statusCode).toBe(403);
  });
});

describe("the outbox and the sender", () => {
  test("an order's event reaches the endpoint after the commit, signed, with a stable id", async () => {
    const { secret } = await addEndpoint(["order.placed", "order.cancelled"]);
    const order = await placeOrder();
    const got = await eventually(async () => receivedOf("order.placed")[0], "order.placed");
    expect(verifies(got, secret)).toBe(true);
    expect(Number(got.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    const payload = JSON.parse(got.body) as { type: string; timestamp: string; data: object };
    expect(payload).toMatchObject({
      type: "order.placed",
      data: { orderId: order._id, number: order.number, status: "unpaid", currency: "USD" },
    });
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    // The admin cancels it: order.cancelled follows.
    const cancel = await asAdmin("PATCH", `/orders/${order._id}/status`, { status: "cancelled" });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const cancelled = await eventually(async () => receivedOf("order.cancelled")[0], "cancelled");
    expect(JSON.parse(cancelled.body)).toMatchObject({
      data: { orderId: order._id, status: "cancelled", reason: "store" },
    });
    expect(cancelled.headers["webhook-id"]).not.toBe(got.headers["webhook-id"]);

    // The log: delivered, one attempt each, with its request and answer.
    const list = (
      await asAdmin("GET", "/webhook-deliveries?status=succeeded")
    ).json<WebhookDeliveryList>();
    const placed = list.deliveries.find((d) => d.eventType === "order.placed")!;
    expect(placed).toMatchObject({ status: "succeeded", attempts: 1, lastResponseStatus: 204 });
    expect(placed.messageId).toBe(got.headers["webhook-id"]);

    // A replay: the same webhook-id and body, signed again.
    const replay = await asAdmin("POST", `/webhook-deliveries/${placed.id}/replay`);
    expect(replay.statusCode, replay.body).toBe(202);
    const again = await eventually(
      async () =>
        receivedOf("order.placed").length === 2 ? receivedOf("order.placed")[1] : undefined,
      "the replay",
    );
    expect(again.headers["webhook-id"]).toBe(got.headers["webhook-id"]);
    expect(again.body).toBe(got.body);
    expect(verifies(again, secret)).toBe(true);
    const detail = await eventually(async () => {
      const d = (
        await asAdmin("GET", `/webhook-deliveries/${placed.id}`)
      ).json<WebhookDeliveryDetail>();
      return d.attemptLog.length === 2 ? d : undefined;
    }, "two attempts logged");
    expect(detail.requestBody).toBe(got.body);
    expect(detail.attemptLog[1]!.requestHeaders["webhook-id"]).toBe(got.headers["webhook-id"]);
  });

  test("nothing is sent before the commit, nor ever for a rolled-back transaction", async () => {
    await addEndpoint(["product.created"]);
    const db = t.database.db;
    // A sender of the test's own, drained by hand while the transaction is open.
    const sender = createWebhookSender(db, {
      allowPrivateAddresses: true,
      mailer: { sendIn: async () => {} },
      publicUrl: "http://localhost",
      log: { warn: () => {} },
    });
    await expect(
      db.transaction(async (tx) => {
        await recordWebhookEvent(tx, { type: "product.created", data: { productId: "p-1" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await sender.drainOnce();
    let release: (() => void) | undefined;
    const committed = db.transaction(async (tx) => {
      await recordWebhookEvent(tx, { type: "product.created", data: { productId: "p-2" } });
      await sender.drainOnce(); // sees nothing of this open transaction
      await new Promise<void>((r) => (release = r));
    });
    const open = await eventually(async () => release, "the transaction open");
    expect(receiver.received).toHaveLength(0);
    open();
    await committed;
    const got = await eventually(async () => receivedOf("product.created")[0], "after commit");
    expect(JSON.parse(got.body)).toMatchObject({ data: { productId: "p-2" } });
    expect(receivedOf("product.created")).toHaveLength(1);
    const events = await db.select().from(webhookOutbox);
    expect(events.map((e) => JSON.parse(e.body).data.productId)).toEqual(["p-2"]);
  });

  test("an endpoint that never answers does not delay an order", async () => {
    const held: http.ServerResponse[] = [];
    receiver.answer((_r, res) => held.push(res));
    await addEndpoint(["order.placed"]);
    const started = performance.now();
    await placeOrder();
    const took = performance.now() - started;
    // The endpoint has the event and has not answered; the order was answered before that.
    await eventually(async () => (held.length > 0 ? true : undefined), "the event at the endpoint");
    expect(took).toBeLessThan(5_000);
    for (const res of held) res.writeHead(200).end();
  });

  test("a redirect is a failure, retried 5 s later; a 500 too", async () => {
    receiver.answer((_r, res) => res.writeHead(302, { location: "http://127.0.0.1:1/" }).end());
    const { endpoint } = await addEndpoint(["product.created"]);
    await t.database.db.transaction((tx) =>
      recordWebhookEvent(tx, { type: "product.created", data: { productId: "p-3" } }),
    );
    const failed = await eventually(async () => {
      const [d] = await t.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id));
      return d && d.attempts === 1 ? d : undefined;
    }, "one failed attempt");
    expect(failed).toMatchObject({
      status: "pending",
      lastResponseStatus: 302,
      failuresInRound: 1,
    });
    expect(failed.lastError).toMatch(/redirects are not followed/);
    const wait = failed.nextAttemptAt!.getTime() - Date.now();
    expect(wait).toBeGreaterThan(2_000);
    expect(wait).toBeLessThanOrEqual(5_000);
    // Only the one request: the redirect was not followed.
    expect(receiver.received).toHaveLength(1);
  });

  test("after persistent failure the endpoint is disabled and every admin is emailed", async () => {
    receiver.answer((_r, res) => res.writeHead(500).end("down for maintenance"));
    const { endpoint } = await addEndpoint(["product.updated"]);
    const db = t.database.db;
    // Four deliveries failed for good already; this one is on its last retry.
    await db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: 4 })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await db.transaction(async (tx) => {
      await recordWebhookEvent(tx, { type: "product.updated", data: { productId: "p-4" } });
      await tx
        .update(webhookDeliveries)
        .set({ failuresInRound: RETRY_DELAYS_MS.length })
        .where(eq(webhookDeliveries.endpointId, endpoint.id));
    });
    const mail = await waitForMail(t.app, ADMIN_EMAIL, /A webhook endpoint was disabled/);
    expect(mail.text).toContain(receiver.url);
    expect(mail.text).toContain("Answered 500");
    const after = (
      await asAdmin("GET", `/webhook-endpoints/${endpoint.id}`)
    ).json<WebhookEndpoint>();
    expect(after).toMatchObject({ status: "disabled", disabledReason: "failing" });
    const [d] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(d).toMatchObject({ status: "failed", nextAttemptAt: null, lastResponseStatus: 500 });
    // Disabled: a new event is not queued for it.
    await db.transaction((tx) =>
      recordWebhookEvent(tx, { type: "product.updated", data: { productId: "p-5" } }),
    );
    const [{ n }] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_deliveries`)
    ).rows as [{ n: number }];
    expect(n).toBe(1);
  });

  test("a test event reaches the endpoint alone", async () => {
    const { endpoint, secret } = await addEndpoint(["stock.low"]);
    const res = await asAdmin("POST", `/webhook-endpoints/${endpoint.id}/test`);
    expect(res.statusCode, res.body).toBe(202);
    const got = await eventually(async () => receivedOf("webhook.ping")[0], "the ping");
    expect(verifies(got, secret)).toBe(true);
  });

  test("an event no endpoint wants costs no query", async () => {
    await addEndpoint(["stock.low"]);
    // This process heard the change (its own, at once; others over NOTIFY).
    const texts: string[] = [];
    await eventually(async () => {
      texts.length = 0;
      await watchQueries(
        t.database.pool,
        (q) => texts.push(q.text),
        () =>
          t.database.db.transaction((tx) =>
            recordWebhookEvent(tx, { type: "product.deleted", data: { productId: "p-6" } }),
          ),
      );
      return texts.some((q) => q.includes("webhook")) ? undefined : true;
    }, "the subscribed types known");
    expect(texts.filter((q) => q.includes("webhook"))).toEqual([]);
    // …and a wanted one is recorded.
    await t.database.db.transaction((tx) =>
      recordWebhookEvent(tx, { type: "stock.low", data: { productId: "p-7" } }),
    );
    await eventually(async () => receivedOf("stock.low")[0], "stock.low");
  });
});

describe("events of the catalog, stock, accounts and companies", () => {
  test("product created, updated, stock low, deleted; customer and company created", async () => {
    const types = [
      "product.created",
      "product.updated",
      "product.deleted",
      "stock.low",
      "customer.created",
      "company.created",
    ];
    await addEndpoint(types);
    const made = await asAdmin("POST", "/products", {
      name: "Webhook part",
      partNumber: "WH-1",
      category: "Other",
      price: 10,
      minimumOrder: 1,
      availableQuantity: 10,
      warranty: 12,
      shortDescription: "A part for the webhooks",
      img: "/images/products/oil-filter.svg",
    });
    expect(made.statusCode, made.body).toBe(201);
    const productId = made.json<{ product: { _id: string } }>().product._id;
    // Reorder level (unset): twice the minimum order, 2. Stock 10 → 1 crosses it: stock.low,
    // recorded by the update itself, then product.updated, in the same transaction.
    const edited = await asAdmin("PATCH", `/products/${productId}`, {
      availableQuantity: 1,
      availableQuantityWas: 10,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await asAdmin("DELETE", `/products/${productId}`)).statusCode).toBe(200);
    const someone = await signUp(t.app);
    const company = await asAdmin("POST", "/companies", { name: "Webhook Motors" });
    expect(company.statusCode, company.body).toBe(201);

    const all = await eventually(async () => {
      const got = receiver.received.map(
        (r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> },
      );
      return got.length >= 6 ? got : undefined;
    }, "six events");
    // In the order they happened (one endpoint: sent one at a time, in order).
    expect(all.map((e) => e.type)).toEqual([
      "product.created",
      "stock.low",
      "product.updated",
      "product.deleted",
      "customer.created",
      "company.created",
    ]);
    expect(all[0]!.data).toMatchObject({
      productId,
      partNumber: "WH-1",
      price: 10,
      availableQuantity: 10,
    });
    expect(all[1]!.data).toMatchObject({ productId, availableQuantity: 1, reorderLevel: 2 });
    expect(all[2]!.data).toMatchObject({
      productId,
      availableQuantity: 1,
      fields: "availableQuantity",
    });
    expect(all[3]!.data).toMatchObject({ productId, partNumber: "WH-1" });
    expect(all[4]!.data).toMatchObject({ email: someone.email.toLowerCase(), role: "user" });
    expect(all[5]!.data).toMatchObject({ name: "Webhook Motors", paymentTerms: "card" });
  });
});

test("the hourly sweep deletes events older than 30 days once no delivery of theirs is pending", async () => {
  const { endpoint } = await addEndpoint(["product.updated"]);
  const db = t.database.db;
  // Two old events on a store that has not sent them: one delivered since, one still pending.
  await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: "admin" })
    .where(eq(webhookEndpoints.id, endpoint.id));
  for (const productId of ["old-done", "old-pending"]) {
    await db.transaction((tx) => insertEvent(tx, "product.updated", { productId }, endpoint.id));
  }
  await db.execute(sql`update webhook_outbox set created_at = now() - interval '31 days'`);
  await db.execute(sql`
    update webhook_deliveries set status = 'succeeded', next_attempt_at = null
     where event_id = (select id from webhook_outbox where body like '%old-done%')`);
  const service = createWebhookService(db, { allowPrivateAddresses: true });
  expect(await service.sweep()).toBe(1);
  const left = await db.select({ body: webhookOutbox.body }).from(webhookOutbox);
  expect(left.map((e) => JSON.parse(e.body).data.productId)).toEqual(["old-pending"]);
});
