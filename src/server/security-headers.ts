import type { FastifyInstance } from "fastify";
import { API_DOCS_PREFIX } from "./openapi";

/**
 * The security headers of every answer, built once at start-up (a helmet-style plugin would
 * rebuild the CSP string on every request, a measurable cost on the catalog's hot path).
 */
export function securityHeaders(opts: { production: boolean; stripe: boolean }) {
  // Nothing of ours may be framed, by anyone: no clickjacking of the checkout or the admin.
  const pageFrameAncestors = ["'none'"];
  const apiFrameAncestors = ["'none'"];
  const stripe = opts.stripe ? ["https://js.stripe.com"] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // Scripts come from our own origin only: no inline script, no eval.
    "script-src": ["'self'", ...stripe],
    "frame-src": ["'self'", ...stripe, ...(opts.stripe ? ["https://hooks.stripe.com"] : [])],
    // Style elements written in the page: the toast library injects its stylesheet, and the
    // shells of the product page and the dashboard inline theirs (no hash fits a library's
    // string). No style attribute: none of our markup has one (React's `style` prop writes
    // through the CSSOM, which the CSP does not govern), and one injected would be someone
    // else's (issue 49). `style-src` is for browsers that know neither of the two.
    "style-src": ["'self'", "'unsafe-inline'"],
    "style-src-elem": ["'self'", "'unsafe-inline'"],
    "style-src-attr": ["'none'"],
    // Product pictures may be linked from other sites, over HTTPS (a plain-HTTP one would be
    // mixed content: production upgrades it anyway).
    "img-src": ["'self'", "data:", "https:"],
    "connect-src": ["'self'", ...(opts.stripe ? ["https://api.stripe.com"] : [])],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": pageFrameAncestors,
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    ...(opts.production ? { "upgrade-insecure-requests": [] } : {}),
  };
  const csp = Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join(";");
  const hsts: Record<string, string> = opts.production
    ? { "strict-transport-security": "max-age=31536000; includeSubDomains" }
    : {};
  return {
    /** Pages, assets, Swagger UI: everything a browser may show as a document. */
    documents: {
      "content-security-policy": csp,
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-origin",
      "origin-agent-cluster": "?1",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-content-type-options": "nosniff",
      "x-dns-prefetch-control": "off",
      "x-frame-options": xFrameOptionsFor(pageFrameAncestors),
      "x-permitted-cross-domain-policies": "none",
      "x-xss-protection": "0",
      ...hsts,
    },
    /**
     * The API's answers (JSON, never a page): the headers OWASP's REST cheat sheet asks of an
     * API. Nothing of theirs may load or frame anything, be sniffed as another type, or be read by
     * another site's page; the document-only headers above would be bytes on every catalog read.
     */
    api: {
      "content-security-policy": `default-src 'none'; frame-ancestors ${apiFrameAncestors.join(" ")}`,
      "cross-origin-resource-policy": "same-origin",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-content-type-options": "nosniff",
      "x-frame-options": xFrameOptionsFor(apiFrameAncestors),
      ...hsts,
    },
  };
}

/**
 * X-Frame-Options, for browsers that know no CSP `frame-ancestors`, says what `frame-ancestors`
 * says (a scanner flags them when they disagree, and an old browser would allow what a new one
 * refuses). It can say only "nobody" or "this origin".
 */
function xFrameOptionsFor(frameAncestors: string[]): "DENY" | "SAMEORIGIN" {
  const rule = frameAncestors.join(" ");
  if (rule === "'none'") return "DENY";
  if (rule === "'self'") return "SAMEORIGIN";
  throw new Error(`X-Frame-Options cannot say frame-ancestors ${rule}`);
}

export function addSecurityHeaders(
  app: FastifyInstance,
  headers: ReturnType<typeof securityHeaders>,
) {
  // Callback style, as the other hooks every request runs: no promise nor microtask each.
  app.addHook("onRequest", (req, reply, done) => {
    // Swagger UI is a page.
    const api = req.url.startsWith("/api/") && !req.url.startsWith(API_DOCS_PREFIX);
    reply.headers(api ? headers.api : headers.documents);
    done();
  });
}
