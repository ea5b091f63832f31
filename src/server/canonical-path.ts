import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";

/** What a request whose path is spelt another way than its canonical form is told. */
export const NON_CANONICAL_PATH_MESSAGE =
  "This address is spelt in a non-standard way (dot segments, empty segments or needless percent-encoding); use its plain form";

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/**
 * A path that is plain already: characters none of the steps below change (no percent sign, no
 * backslash, nothing the URL parser encodes) and no empty or dot segment. Most requests are, and
 * skip the parse. A trailing slash is sent the long way, which keeps it.
 */
const PLAIN = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const EMPTY_OR_DOT_SEGMENT = /\/(?:\.\.?)?(?:\/|$)/;

/**
 * The plain form of a URL path: percent-encoded unreserved characters decoded (RFC 3986 6.2.2.2),
 * backslashes read as slashes and dot segments resolved as a browser does (WHATWG URL), empty
 * segments removed. Fastify's router, Better Auth and every hook then see one and the same path.
 */
export function canonicalPath(path: string): string {
  if (PLAIN.test(path) && !EMPTY_OR_DOT_SEGMENT.test(path)) return path;
  return parsedCanonicalPath(path);
}

/** canonicalPath the long way, for every path (exported for its test). */
export function parsedCanonicalPath(path: string): string {
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
  // Slashes first: "//host" or "/\\host" would otherwise be read as another host.
  const slashes = decoded.replace(/[\\/]+/g, "/");
  return new URL(slashes, "http://canonical.invalid").pathname.replace(/\/{2,}/g, "/");
}

/**
 * Decides one path per request, before any other hook: the rate limits, the password policy,
 * the Origin check and Better Auth all look at `req.url`, while the router and Better Auth
 * normalise what they match. A path spelt another way (`/api/auth/./sign-in/email`, `/%61pi/…`,
 * `//api`) is refused with 400, or, for a page read, redirected to its plain form.
 */
export function requireCanonicalPath(app: FastifyInstance) {
  app.addHook(
    "onRequest",
    (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const raw = req.raw.url ?? "/";
      const queryAt = raw.indexOf("?");
      const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
      const canonical = path.startsWith("/") ? canonicalPath(path) : undefined;
      if (canonical === path) return done();
      const pageRead =
        (req.method === "GET" || req.method === "HEAD") &&
        canonical !== undefined &&
        !canonical.startsWith("/api/");
      if (pageRead) {
        reply.redirect(canonical + (queryAt === -1 ? "" : raw.slice(queryAt)), 308);
        return;
      }
      reply.code(400).send({ error: "non_canonical_path", message: NON_CANONICAL_PATH_MESSAGE });
    },
  );
}
