import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { MAX_IMAGE_URL_LENGTH, MAX_NAME_LENGTH } from "../../contract/constants";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "../../contract/text";
import { UNAVAILABLE_MESSAGE } from "../error-handler";
import { HttpError } from "../errors";
import type { RateLimiter } from "./rate-limit";
import { tooManyAttemptsMessage } from "./request-limit";
import type { Auth } from "./auth";
import { limitedAuthPaths, pathMatcher } from "./limited-paths";
import { weakPassword } from "./password-policy";

export interface AuthRoutesOptions {
  auth: Auth;
  publicUrl: string;
  rateLimiter: RateLimiter;
  limits: { perIp: number; perEmail: number; windowSeconds: number; mailSpacingSeconds: number };
  /** Rejects when the database does not answer (see below). */
  databaseAnswers?: () => Promise<void>;
  /** Ends the caller's session if it is past its absolute lifetime (session-reader.ts). */
  endAgedSession?: (cookieHeader: string | undefined) => Promise<void>;
}

/** Mounts Better Auth at /api/auth/*, behind our rate limit, answering errors in our shape. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, opts) => {
  const limited = pathMatcher(limitedAuthPaths(opts.auth));
  app.route({
    method: ["GET", "POST"],
    url: "/auth/*",
    schema: { hide: true },
    handler: async (req, reply) => {
      const pathname = req.url.split("?")[0] ?? "";
      if (req.method === "POST" && typeof req.body === "string") {
        // Fastify parsed it as text: Better Auth takes JSON only.
        return reply
          .code(415)
          .send({ error: "unsupported_media_type", message: "Send the body as application/json" });
      }
      // Better Auth's bodies have no contract of ours: the contracts' text rule is applied here.
      const field = controlCharacterField(req.query) ?? controlCharacterField(req.body);
      if (field !== undefined) {
        return reply.code(400).send({
          error: "validation",
          message: `${field}: ${CONTROL_CHARACTERS_MESSAGE}`,
          fields: { [field]: CONTROL_CHARACTERS_MESSAGE },
        });
      }
      const tooLong = req.method === "POST" ? overLongProfileField(req.body) : undefined;
      if (tooLong) {
        return reply.code(400).send({
          error: "validation",
          message: `${tooLong.field}: ${tooLong.message}`,
          fields: { [tooLong.field]: tooLong.message },
        });
      }
      if (req.method === "POST" && limited(pathname)) {
        const refused = await checkRateLimit(req, pathname, opts);
        if (refused?.quiet) return reply.send(MAIL_PATH_ANSWERS[pathname]);
        if (refused) return tooManyAttempts(reply, refused.retryAfter);
      }
      const weak = await weakPassword(req, pathname, opts.auth);
      if (weak) {
        return reply.code(400).send({
          error: "weak_password",
          message: weak.message,
          fields: { [weak.field]: weak.message },
        });
      }
      if (req.headers.cookie && opts.endAgedSession) await opts.endAgedSession(req.headers.cookie);
      const res = await opts.auth.handler(toWebRequest(req, opts.publicUrl));
      if (pathname === SIGN_IN_PATH && res.ok) {
        const key = signInKey(req);
        if (key) await opts.rateLimiter.reset(key);
      }
      // Some endpoints (get-session) turn a database error into a 500 of their own: when the
      // database is indeed away, answer what every other route answers then.
      if (res.status >= 500 && opts.databaseAnswers) {
        const away = await opts.databaseAnswers().then(
          () => false,
          () => true,
        );
        if (away) throw new HttpError(503, "unavailable", UNAVAILABLE_MESSAGE);
      }
      return sendWebResponse(reply, res);
    },
  });
};

/** A display name or image address over its limit (the database refuses them too). */
function overLongProfileField(body: unknown): { field: string; message: string } | undefined {
  if (!body || typeof body !== "object") return undefined;
  const { name, image } = body as { name?: unknown; image?: unknown };
  if (typeof name === "string" && name.length > MAX_NAME_LENGTH) {
    return { field: "name", message: `Must be ${MAX_NAME_LENGTH} characters or shorter` };
  }
  if (typeof image === "string" && image.length > MAX_IMAGE_URL_LENGTH) {
    return { field: "image", message: `Must be ${MAX_IMAGE_URL_LENGTH} characters or shorter` };
  }
  return undefined;
}

/** The path of the first key or string in `value` that holds a control character, if any. */
function controlCharacterField(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return hasControlCharacters(value) ? path || "body" : undefined;
  if (!value || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    if (hasControlCharacters(key)) return where;
    const found = controlCharacterField(item, where);
    if (found !== undefined) return found;
  }
  return undefined;
}

const SIGN_IN_PATH = "/api/auth/sign-in/email";

function bodyEmail(req: FastifyRequest): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email.length <= 254 ? email.trim().toLowerCase() : undefined;
}

/** Password guesses are slowed per (account, client IP): nobody else's guesses slow the owner. */
function signInKey(req: FastifyRequest): string | undefined {
  const email = bodyEmail(req);
  return email === undefined ? undefined : `auth:sign-in:${email}|${req.ip}`;
}

/**
 * The mail-sending paths, and what Better Auth answers on them whether or not the address has an
 * account: what a request over the address's budget is answered too, with no mail sent, so that
 * a budget spent by someone else neither blocks the owner visibly nor tells anyone anything.
 */
const MAIL_PATH_ANSWERS: Record<string, object> = {
  "/api/auth/request-password-reset": {
    status: true,
    message: "If this email exists in our system, check your email for the reset link",
  },
  "/api/auth/send-verification-email": { status: true },
};

/** An address's burst of mail from all clients together, as a multiple of its budget per client IP. */
const ADDRESS_BURST_FACTOR = 5;

interface Refusal {
  retryAfter: number;
  /** Only the address's budget is spent on a mail path: answer as usual, send nothing. */
  quiet: boolean;
}

async function checkRateLimit(
  req: FastifyRequest,
  pathname: string,
  { rateLimiter, limits }: AuthRoutesOptions,
): Promise<Refusal | undefined> {
  const perIp = rateLimiter.hit(`auth:ip:${req.ip}`, limits.perIp, limits.windowSeconds);
  const email = bodyEmail(req);
  const perAddress = [];
  if (pathname === SIGN_IN_PATH) {
    const key = signInKey(req);
    if (key) perAddress.push(rateLimiter.backoff(key, limits.perEmail, limits.windowSeconds));
  } else if (email !== undefined) {
    // Mail-sending and account-creating paths: a budget per (address, client IP), so requests
    // from elsewhere cannot spend the owner's.
    perAddress.push(
      rateLimiter.hit(`auth:email:${email}|${req.ip}`, limits.perEmail, limits.windowSeconds),
    );
  }
  const [ip, ...address] = await Promise.all([perIp, ...perAddress]);
  // And per address from everywhere, spaced out rather than counted out (issue 49, finding 2): a
  // burst, then one mail every AUTH_MAIL_SPACING_SECONDS whoever asks, so an inbox is not flooded
  // and never holds a link older than that spacing. Taken only by a request the budgets above let
  // through: refused requests must not use up the owner's turn.
  if (
    email !== undefined &&
    pathname !== SIGN_IN_PATH &&
    [ip!, ...address].every((r) => r.allowed)
  ) {
    address.push(
      await rateLimiter.spaced(
        `auth:mail:${email}`,
        limits.perEmail * ADDRESS_BURST_FACTOR,
        limits.mailSpacingSeconds,
      ),
    );
  }
  const blocked = [ip!, ...address].filter((r) => !r.allowed);
  if (blocked.length === 0) return undefined;
  return {
    retryAfter: Math.max(...blocked.map((r) => r.retryAfter)),
    quiet: ip!.allowed && pathname in MAIL_PATH_ANSWERS,
  };
}

function tooManyAttempts(reply: FastifyReply, retryAfter: number) {
  return reply
    .code(429)
    .header("retry-after", retryAfter)
    .send({ error: "too_many_requests", message: tooManyAttemptsMessage(retryAfter) });
}

/** Headers a client could use to claim another address; replaced by the one we trust. */
const CLIENT_ADDRESS_HEADERS = new Set(["x-forwarded-for", "x-real-ip", "forwarded"]);

function toWebRequest(req: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CLIENT_ADDRESS_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // Better Auth records a session's IP from X-Forwarded-For: give it the address Fastify
  // resolved through the trusted proxy hops (TRUST_PROXY), never what the client wrote.
  headers.set("x-forwarded-for", req.ip);
  const hasBody = req.method !== "GET" && req.body !== undefined && req.body !== null;
  return new Request(new URL(req.url, publicUrl), {
    method: req.method,
    headers,
    body: hasBody ? JSON.stringify(req.body) : undefined,
  });
}

async function sendWebResponse(reply: FastifyReply, res: Response) {
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  const text = await res.text();
  if (res.status < 400 && res.headers.get("content-type")?.includes("application/json")) {
    const body = safeJson(text);
    if (body !== undefined) return reply.send(JSON.stringify(withoutSessionTokens(body)));
  }
  if (res.status >= 400) {
    // Better Auth answers { code, message }; the rest of our API answers { error, message }.
    const body = safeJson(text) as { code?: unknown; message?: unknown } | undefined;
    return reply.type("application/json").send({
      error: typeof body?.code === "string" ? body.code.toLowerCase() : "auth_error",
      message: typeof body?.message === "string" ? body.message : res.statusText || "Failed",
    });
  }
  return reply.send(text.length > 0 ? text : null);
}

/**
 * An answer without the session tokens Better Auth puts in it (`token` of sign-in, sign-up and
 * the code step, `session.token` of get-session, each session's of list-sessions): the token is
 * the session itself, kept from scripts in an httpOnly cookie; in a JSON body any script of the
 * page could read it (issue 49). The web app reads none of them.
 */
function withoutSessionTokens(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutSessionTokens);
  if (!body || typeof body !== "object") return body;
  const out: Record<string, unknown> = { ...body };
  delete out.token;
  if (out.session !== undefined) out.session = withoutSessionTokens(out.session);
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
