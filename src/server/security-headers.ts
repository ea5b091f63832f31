import type { FastifyInstance } from "fastify";

/**
 * The security headers of every answer, built once at start-up (a helmet-style plugin would
 * rebuild the CSP string on every request, a measurable cost on the catalog's hot path).
 */
export function securityHeaders(opts: { production: boolean; stripe: boolean }) {
  const stripe = opts.stripe ? ["https://js.stripe.com"] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // Scripts come from our own origin only: no inline script, no eval.
    "script-src": ["'self'", ...stripe],
    "frame-src": ["'self'", ...stripe, ...(opts.stripe ? ["https://hooks.stripe.com"] : [])],
    // Style attributes and the toast library's injected stylesheet.
    "style-src": ["'self'", "'unsafe-inline'"],
    // Product pictures may be linked from other sites.
    "img-src": ["'self'", "data:", "https:", "http:"],
    "connect-src": ["'self'", ...(opts.stripe ? ["https://api.stripe.com"] : [])],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    ...(opts.production ? { "upgrade-insecure-requests": [] } : {}),
  };
  const csp = Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join(";");
  return {
    "content-security-policy": csp,
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "origin-agent-cluster": "?1",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-content-type-options": "nosniff",
    "x-dns-prefetch-control": "off",
    "x-frame-options": "SAMEORIGIN",
    "x-permitted-cross-domain-policies": "none",
    "x-xss-protection": "0",
    ...(opts.production
      ? { "strict-transport-security": "max-age=31536000; includeSubDomains" }
      : {}),
  };
}

export function addSecurityHeaders(app: FastifyInstance, headers: Record<string, string>) {
  // Callback style, as the other hooks every request runs: no promise nor microtask each.
  app.addHook("onRequest", (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
