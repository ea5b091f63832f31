import http from "node:http";
import https from "node:https";
import { guardedLookup } from "./destination";

/** The start of an answer's body the log keeps. */
export const RESPONSE_EXCERPT_CHARS = 2_000;

export interface PostResult {
  /** The HTTP status, or null when none came. */
  status: number | null;
  body: string | null;
  durationMs: number;
  /** Why it failed, in words; null when the answer was 2xx. */
  error: string | null;
}

/**
 * Posts one delivery: no redirects followed (a 3xx is a failure), the whole exchange within
 * `timeoutMs`, the destination's addresses checked as it connects (destination.ts), and only the
 * first 2,000 characters of the answer read.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: {
    timeoutMs: number;
    allowPrivate: boolean;
    /** Keep-alive agents (none: a connection of its own). */
    agents?: { http: http.Agent; https: https.Agent };
  },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      done({ status: null, body: null, error: "Not a URL" });
      return;
    }
    const secure = target.protocol === "https:";
    const client = secure ? https : http;
    const agent = opts.agents ? (secure ? opts.agents.https : opts.agents.http) : false;
    const payload = Buffer.from(body);
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(payload.length) },
        lookup: guardedLookup(opts.allowPrivate) as never,
        agent,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < RESPONSE_EXCERPT_CHARS) text += chunk;
          if (text.length >= RESPONSE_EXCERPT_CHARS) {
            finish();
            res.destroy();
          }
        });
        const finish = () => {
          const excerpt = text.slice(0, RESPONSE_EXCERPT_CHARS);
          const error =
            status >= 200 && status < 300
              ? null
              : status >= 300 && status < 400
                ? `Answered ${status}: redirects are not followed`
                : `Answered ${status}`;
          done({ status, body: excerpt, error });
        };
        res.on("end", finish);
        res.on("error", finish);
        res.on("close", finish);
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, body: null, error: `No answer within ${opts.timeoutMs / 1000} s` });
      req.destroy();
    }, opts.timeoutMs);
    req.on("error", (err) => done({ status: null, body: null, error: err.message }));
    req.end(payload);
  });
}
