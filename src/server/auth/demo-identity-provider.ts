import { randomBytes, timingSafeEqual, webcrypto } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

/**
 * A real OpenID Connect provider (the `oidc-provider` package) with one demo account, so social
 * sign-in can be tried offline. The store starts it on loopback in its demo default; the
 * end-to-end tests start it as a separate identity provider. Never used in production.
 */
export const demoAccount = {
  sub: "demo-driver-0001",
  email: "driver@example.com",
  password: "driver123",
  name: "Dana Driver",
  emailVerified: true,
};

/**
 * A second identity whose provider does NOT vouch for the address (`email_verified: false`), as
 * some providers answer for addresses they never checked: the store must not treat it as proof.
 */
export const unverifiedDemoAccount = {
  sub: "demo-driver-0002",
  email: "unchecked-driver@example.com",
  password: "driver456",
  name: "Uma Unchecked",
  emailVerified: false,
};

const accounts = [demoAccount, unverifiedDemoAccount];

/**
 * oidc-provider's storage, in memory (the demo provider's sign-ins need not survive a restart):
 * models by id, with their expiry, and the lookups the package makes.
 */
function memoryAdapter() {
  type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string };
  const store = new Map<string, { payload: Payload; expiresAt: number }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) store.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  };
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Payload, expiresIn: number) {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const [key] of store) {
        const payload = key.startsWith(`${this.model}:`) ? live(key) : undefined;
        if (payload?.uid === uid) return payload;
      }
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key] of store) {
        const payload = key.startsWith(`${this.model}:`) ? live(key) : undefined;
        if (payload?.userCode === userCode) return payload;
      }
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

export interface DemoIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * The provider's signing key: an EC (P-256) key, made with WebCrypto off the main thread, and
 * kept in `keyFile` (mode 0600) when one is given, so a store makes it once. It was an RSA key
 * made at every start, and Node 20's crypto once deadlocked exporting it: the store hung before
 * listening and heard no SIGTERM (issue 49, finding 4).
 */
export async function demoSigningKey(keyFile?: string): Promise<webcrypto.JsonWebKey> {
  if (keyFile) {
    const kept = await fs.readFile(keyFile, "utf8").then(
      (text) => JSON.parse(text) as webcrypto.JsonWebKey,
      (err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") throw err;
        return undefined;
      },
    );
    if (kept) return kept;
  }
  const pair = await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]);
  const { kty, crv, x, y, d } = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
  const made = { kty, crv, x, y, d };
  if (!keyFile) return made;
  await fs.mkdir(path.dirname(keyFile), { recursive: true });
  // Written whole under a name of its own, then linked into place: another process starting at
  // the same moment sees no file or the whole key, never one created and not yet written (the
  // multi-process system test once read it so: "Unexpected end of JSON input").
  const whole = `${keyFile}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await fs.writeFile(whole, JSON.stringify(made), { mode: 0o600, flag: "wx" });
  try {
    await fs.link(whole, keyFile).catch((err: NodeJS.ErrnoException) => {
      // Another process made it first: use theirs.
      if (err.code !== "EEXIST") throw err;
    });
  } finally {
    await fs.rm(whole, { force: true });
  }
  return JSON.parse(await fs.readFile(keyFile, "utf8")) as webcrypto.JsonWebKey;
}

export async function startDemoIdentityProvider(opts: {
  redirectUris: string[];
  port?: number;
  /** Where its signing key is kept (the store's data folder); made afresh without one. */
  keyFile?: string;
}): Promise<DemoIdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "partsworks-store";
  const clientSecret = randomBytes(24).toString("hex");
  const signingKey = await demoSigningKey(opts.keyFile);

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        // Its only key is an EC one.
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // Its own storage and lifetimes, so that it says nothing at start: the package's quick-start
    // adapter and default lifetimes print warnings meant for a real deployment.
    adapter: memoryAdapter(),
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const found = accounts.find((a) => a.sub === id);
      return found
        ? {
            accountId: id,
            claims: async () => ({
              sub: id,
              email: found.email,
              email_verified: found.emailVerified,
              name: found.name,
            }),
          }
        : undefined;
    },
    // The store is a first-party client: its scopes are granted without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  provider.on("server_error", () => {});
  const callback = provider.callback();

  server.on("request", (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? "/", issuer).pathname);
    if (!match) return callback(req, res);
    handleInteraction(provider, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
      res.end("This sign-in request is no longer valid. Go back to the store and try again.");
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handleInteraction(
  provider: Provider,
  req: http.IncomingMessage,
  res: http.ServerResponse,
) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== "login") {
    // Only login is ever asked for (consent is pre-granted): finish with what we have.
    return provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
  }
  if (req.method === "POST") {
    const form = new URLSearchParams(await readBody(req));
    const email = form.get("email")?.trim().toLowerCase() ?? "";
    const found = accounts.find(
      (a) => sameText(email, a.email) && sameText(form.get("password") ?? "", a.password),
    );
    if (found) {
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: found.sub } },
        { mergeWithLastSubmission: false },
      );
    }
    return sendLoginPage(res, details.uid, "Wrong email or password.");
  }
  return sendLoginPage(res, details.uid);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) reject(new Error("body too large"));
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function sendLoginPage(res: http.ServerResponse, uid: string, error?: string) {
  res.writeHead(error ? 401 : 200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    "cache-control": "no-store",
  });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo ID – sign in</title>
<style>
body{font-family:system-ui,sans-serif;background:#eef2f7;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;padding:2rem;border-radius:12px;box-shadow:0 4px 20px #0002;width:min(22rem,90vw)}
h1{font-size:1.3rem;margin:0 0 .25rem}p{color:#555;margin:.25rem 0 1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #bbb;border-radius:6px;font-size:1rem}
button{margin-top:1.25rem;width:100%;padding:.7rem;border:0;border-radius:6px;background:#1e3a5f;color:#fff;font-size:1rem;cursor:pointer}
.error{color:#b00020;font-weight:600}
</style></head><body><main>
<h1>Demo ID</h1>
<p>The store's demo identity provider. Demo account: ${demoAccount.email} / ${demoAccount.password}</p>
${error ? `<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/interaction/${uid}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in to Demo ID</button>
</form></main></body></html>`);
}
