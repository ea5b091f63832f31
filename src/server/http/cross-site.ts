import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

const REFUSED = "Cross-site requests are not accepted";

/**
 * The origins of the store's own pages: PUBLIC_URL's, and outside production the loopback
 * spellings of this machine on PUBLIC_URL's port (when it is a loopback address) and on the
 * server's own port, so that a developer who opens http://127.0.0.1:3000 instead of localhost is
 * not taken for another site. Any other port of the same host is another site.
 */
export function storeOrigins(
  publicUrl: string,
  opts: { production: boolean; port: number },
): string[] {
  const ours = new URL(publicUrl);
  if (opts.production) return [ours.origin];
  const loopback = (protocol: string, port: string) =>
    LOOPBACK_HOSTS.map((host) => new URL(`${protocol}//${host}${port ? `:${port}` : ""}`).origin);
  return [
    ...new Set([
      ours.origin,
      ...(LOOPBACK_HOSTS.includes(ours.hostname) ? loopback(ours.protocol, ours.port) : []),
      ...loopback("http:", String(opts.port)),
    ]),
  ];
}

/**
 * A state-changing request must come from our own pages: a browser always sends Origin on such
 * requests, so a foreign Origin means another site is making the visitor's browser call us.
 * Every path, not only /api (the path is canonical by now: canonical-path.ts), and only the
 * store's own origins (`storeOrigins`), never whatever the request's Host header names. In
 * production the refusal names PUBLIC_URL: someone who reached the store by another address
 * learns which one works.
 */
export function refuseCrossSiteWrites(
  publicUrl: string,
  opts: { production: boolean; port: number },
) {
  const ours = new Set(storeOrigins(publicUrl, opts));
  const message = opts.production ? `${REFUSED}: open the store at ${publicUrl}` : REFUSED;
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return done();
    const origin = req.headers.origin;
    const crossSite = origin
      ? !ours.has(origin)
      : req.headers["sec-fetch-site"] === "cross-site" ||
        req.headers["sec-fetch-site"] === "same-site";
    // Answered here: the request goes no further (done is not called).
    if (crossSite) {
      reply.code(403).send({ error: "cross_site", message });
      return;
    }
    done();
  };
}
