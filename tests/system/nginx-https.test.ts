import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startCommand } from "../support/start-command";
import { getFreePort } from "../../src/server/db/free-port";
import { cookieHeader } from "../support/accounts";
import { orderToTestAddress } from "../support/destination";

/**
 * docs/operations.md ("Running the store in production") for real: Debian's nginx
 * (/usr/sbin/nginx) terminating TLS with a self-signed certificate, gzip on, in front of the
 * compiled store in production mode with TRUST_PROXY=127.0.0.1; a customer signs up, orders and
 * pays over HTTPS with `__Secure-` cookies.
 * nginx runs unprivileged from a temporary prefix (its pid, logs and temp files there).
 */
const root = path.resolve(import.meta.dirname, "../..");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

let dir: string;
let dataDir: string;
let ca: Buffer;
let base: string;
let nginxPort: number;
const children: ChildProcess[] = [];

/** The nginx configuration of docs/operations.md, with ports and paths of this test. */
function nginxConf(o: { dir: string; port: number; upstream: number }) {
  // Run as root (CI), nginx's workers would switch to nobody, who cannot use this temp folder.
  return `${process.getuid?.() === 0 ? "user root;" : ""}
daemon off;
worker_processes 1;
pid ${o.dir}/nginx.pid;
error_log ${o.dir}/error.log warn;
events { worker_connections 256; }
http {
  log_format store '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time id=$request_id';
  access_log ${o.dir}/access.log store;
  client_body_temp_path ${o.dir}/client_body;
  proxy_temp_path ${o.dir}/proxy;
  fastcgi_temp_path ${o.dir}/fastcgi;
  uwsgi_temp_path ${o.dir}/uwsgi;
  scgi_temp_path ${o.dir}/scgi;
  upstream store { server 127.0.0.1:${o.upstream}; keepalive 16; }
  server {
    # (Debian 12's nginx 1.22: "ssl http2" on listen; from 1.25 "http2 on;" instead.)
    listen 127.0.0.1:${o.port} ssl http2;
    server_name localhost;
    ssl_certificate ${o.dir}/cert.pem;
    ssl_certificate_key ${o.dir}/key.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    client_max_body_size 3m;
    gzip on;
    gzip_proxied any;
    gzip_vary on;
    gzip_types application/json application/javascript text/css image/svg+xml text/plain;
    location / {
      proxy_pass http://store;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host:$server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      proxy_read_timeout 60s;
    }
    location = /metrics { return 404; }
  }
}
`;
}

/** Waits until `pattern` appears in what the child printed (or fails when it exits first). */
function printed(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = pattern.exec(output);
      if (m) resolve(m);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`exited (${code}) before ${pattern}:\n${output}`)),
    );
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
function request(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        ca,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-nginx-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  // A folder of its own, as production-start.test.ts does (as root the embedded PostgreSQL runs
  // as the postgres user, who must reach it).
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-nginx-data-"));
  ca = await fs.readFile(path.join(dir, "cert.pem"));
  const [storePort, port] = [await getFreePort(), await getFreePort()];
  nginxPort = port;
  base = `https://localhost:${port}`;

  const env = { ...process.env };
  delete env.NODE_ENV;
  const start = startCommand();
  const store = spawn(process.execPath, start.args, {
    cwd: root,
    env: {
      ...env,
      ...start.env,
      NODE_ENV: "production",
      PAYMENTS_GATEWAY: "test-card",
      PORT: String(storePort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      TRUST_PROXY: "127.0.0.1",
      BETTER_AUTH_SECRET: "nginx-test-secret-that-is-long-enough-0123456789",
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(store);
  await printed(store, /store listening on/);

  await fs.writeFile(
    path.join(dir, "nginx.conf"),
    nginxConf({ dir, port: nginxPort, upstream: storePort }),
  );
  const nginx = spawn(
    NGINX,
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(nginx);
  // Ready once it answers over TLS.
  for (;;) {
    if (nginx.exitCode !== null) {
      const log = await fs.readFile(path.join(dir, "error.log"), "utf8").catch(() => "");
      throw new Error(`nginx exited (${nginx.exitCode}):\n${log}`);
    }
    const ok = await request("GET", `${base}/api/health/live`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setImmediate(r));
  }
}, 120_000);

afterAll(async () => {
  // nginx first (SIGQUIT: graceful), then the store (SIGTERM), each waited for.
  for (const [child, signal] of [
    [children[1], "SIGQUIT"],
    [children[0], "SIGTERM"],
  ] as const) {
    if (!child || child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  }
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("sign-up → order → pay over HTTPS through nginx, with __Secure- cookies, gzip and request ids", async () => {
  const started = performance.now();
  const origin = { origin: base };
  let cookie = "";
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await request(method, `${base}${url}`, { ...origin, cookie }, body);
    const set = res.headers["set-cookie"];
    if (set && set.length > 0) {
      for (const c of set) expect(c).toMatch(/^__Secure-[^;]+;.*\bSecure\b/i);
      cookie = cookieHeader(set);
    }
    return { ...res, json: () => JSON.parse(res.body.toString()) as Record<string, unknown> };
  };

  const email = `nginx-${Date.now()}@example.com`;
  const signUp = await call("POST", "/api/auth/sign-up/email", {
    email,
    password: "Rotor-Caliper-42",
    name: "Nginx Customer",
  });
  expect(signUp.status).toBe(200);
  expect(cookie).toMatch(/__Secure-better-auth\.session_token=/);
  expect((await call("GET", "/api/user")).status).toBe(200);

  // The catalog through nginx's gzip, HSTS from the store in production.
  const list = await request("GET", `${base}/api/products?limit=24`, { "accept-encoding": "gzip" });
  expect(list.status).toBe(200);
  expect(list.headers["content-encoding"]).toBe("gzip");
  expect(list.headers["strict-transport-security"]).toBeDefined();
  // nginx's request id is the store's (TRUST_PROXY=127.0.0.1).
  expect(list.headers["x-request-id"]).toMatch(/^[0-9a-f]{32}$/);
  const products = JSON.parse(gunzipSync(list.body).toString()) as {
    _id: string;
    minimumOrder: number;
    availableQuantity: number;
  }[];
  const product = products.find((p) => p.availableQuantity >= p.minimumOrder)!;

  const placed = await call(
    "POST",
    "/api/orders",
    orderToTestAddress(product._id, product.minimumOrder),
  );
  expect(placed.status).toBe(201);
  const orderId = (placed.json().order as { _id: string })._id;

  const intent = await call("POST", "/api/create-payment-intent", { orderId });
  expect(intent.status).toBe(200);
  const charge = await call("POST", "/api/payments/test-card/confirm", {
    clientSecret: intent.json().clientSecret,
    number: "4242424242424242",
    expMonth: 12,
    expYear: 2030,
    cvc: "123",
  });
  expect(charge.status).toBe(200);
  const paid = await call("PATCH", `/api/orders/${orderId}`, {
    transactionId: charge.json().transactionId,
  });
  expect(paid.status).toBe(200);
  const order = await call("GET", `/api/orders/${orderId}`);
  expect(order.json()).toMatchObject({ paid: true });

  // Without its session cookie the same order is not reachable; /metrics is closed at nginx.
  expect((await request("GET", `${base}/api/orders/${orderId}`)).status).toBe(401);
  expect((await request("GET", `${base}/metrics`)).status).toBe(404);
  // nginx's access log names each request by the id the store had.
  const accessLog = await fs.readFile(path.join(dir, "access.log"), "utf8");
  expect(accessLog).toContain(`id=${String(list.headers["x-request-id"])}`);
  console.log(
    `nginx (TLS, gzip) → store: sign-up, order and payment over HTTPS in ` +
      `${Math.round(performance.now() - started)} ms, __Secure- cookies only`,
  );
}, 60_000);
