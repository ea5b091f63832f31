import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Config } from "./config";
import { wasShed } from "./overload";
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
} from "pino";

/** Anything shaped like an email address, wherever it appears in a log line. */
const EMAIL = /[^\s"'<>()[\]{},;:/?=&@]+@[^\s"'<>()[\]{},;:/?=&@]+\.[A-Za-z]{2,}/g;
/** Replaces email addresses (also percent-encoded ones in URLs) in a text. */
export function scrub(text: string): string {
  return text.replace(/%40/gi, "@").replace(EMAIL, "[email]");
}

/** Keys whose values are never logged, at any depth we reach. */
const SECRET_KEYS = new Set([
  "cookie",
  "set-cookie",
  "authorization",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "body",
  "payload",
  "email",
  "to",
]);

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (value instanceof Error) return value; // the err serializer scrubs it
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEYS.has(k) ? "[redacted]" : scrubValue(v, depth + 1);
  }
  return out;
}

/**
 * The one logger of a server process: pino writing JSON lines to stdout (or `stream`), with
 * personal data taken out before anything is written: cookies, authorization headers,
 * passwords, tokens, request bodies and email addresses (in messages, URLs, error texts and
 * logged objects alike).
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      serializers: {
        err: (err: Error) => scrubValue(pino.stdSerializers.err(err), 0) as object,
      },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((a) => scrubValue(a, 0)) as Parameters<typeof method>);
        },
      },
    },
    stream,
  );
}

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

/**
 * One JSON log line as a person at a terminal reads it: `14:03:07 INFO message key=value`, the
 * error's message and stack under it. Lines that are not pino's JSON pass through as they are.
 */
export function humanLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const { level, time, msg, err, ...rest } = entry;
  delete rest.pid;
  delete rest.hostname;
  const at = new Date(typeof time === "number" ? time : Date.now()).toTimeString().slice(0, 8);
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  const error = err as { message?: string; stack?: string } | undefined;
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  return (
    `${at} ${name.padEnd(5)} ${String(msg ?? "")}${fields ? ` ${fields}` : ""}\n` +
    (error ? `${error.stack ?? error.message ?? ""}\n` : "")
  );
}

/** Writes pino's lines to `out` in `humanLine`'s form (for a terminal; LOG_FORMAT=json opts out). */
export function humanStream(out: NodeJS.WritableStream = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(humanLine(line.trimEnd())) };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id a request's log lines carry: the proxy's `X-Request-Id` when the proxy is trusted
 * (TRUST_PROXY) and the id looks like one, else a fresh UUID; a client cannot choose its own.
 */
export function requestIdGenerator(trustProxy: false | number | readonly string[]) {
  // Any proxy configured: its id is taken (a client that bypasses it can only pick a well-formed
  // id for its own lines; the id is never used for anything but logs).
  const trusted = trustProxy !== false;
  return (req: IncomingMessage): string => {
    const given = trusted ? req.headers["x-request-id"] : undefined;
    return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
  };
}

type LogMethod = (...args: unknown[]) => void;
type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/**
 * A request's logger (Fastify's `childLoggerFactory`): pino's child with the request id, made
 * when the request first logs. Most requests log nothing (logResponses in app.ts), and making a
 * child for each was about 3% of a cached catalog read.
 */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  opts: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, opts) as unknown as FastifyBaseLogger;
}

class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}
  private get logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.opts));
  }
  private log(level: Level, args: unknown[]) {
    (this.logger as unknown as Record<Level, LogMethod>)[level](...args);
  }
  get level(): string {
    return this.#child?.level ?? this.opts.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  fatal(...args: unknown[]) {
    this.log("fatal", args);
  }
  error(...args: unknown[]) {
    this.log("error", args);
  }
  warn(...args: unknown[]) {
    this.log("warn", args);
  }
  info(...args: unknown[]) {
    this.log("info", args);
  }
  debug(...args: unknown[]) {
    this.log("debug", args);
  }
  trace(...args: unknown[]) {
    this.log("trace", args);
  }
  silent() {}
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, opts);
  }
}

/** Fastify's form of `config.trustProxy`: a hop count becomes "trust the nearest N hops". */
export function trustProxyOption(trust: Config["trustProxy"]) {
  if (typeof trust !== "number") return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * Each request's id goes back as `X-Request-Id`. A request that failed (4xx, 5xx) or took over a
 * second is logged as one `info` line; the others at `debug` only (nginx's access log has every
 * request, under the same id): a line per request halved catalog throughput here.
 */
export function logResponses(app: FastifyInstance) {
  const SLOW_MS = 1000;
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("x-request-id", req.id);
    done();
  });
  app.addHook("onResponse", (req, reply, done) => {
    // Refusals for overload are logged once a second by overload.ts, not each.
    if (wasShed(req)) return done();
    const notable = reply.statusCode >= 400 || reply.elapsedTime > SLOW_MS;
    if (!notable && req.log.level !== "debug" && req.log.level !== "trace") return done();
    req.log[notable ? "info" : "debug"](
      {
        req: { method: req.method, url: scrub(req.url), remoteAddress: req.ip },
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request completed",
    );
    done();
  });
}
