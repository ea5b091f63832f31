/**
 * What the process does with an error that escapes outside any request: a promise rejected with
 * nobody awaiting it (pg-boss completes a job without awaiting the query, so a full disk or a
 * restarting database surfaces here), or a background loop that let one through.
 *
 * The policy lists what is fatal, not what is survivable. A failure of the world around the
 * store (the database refusing or away, the network, the disk) says nothing about the state of
 * this process: the request or job it belonged to has failed already and will be retried, and
 * ending the process would only cut off every request in flight (and, under a supervisor,
 * restart into the same full disk). Those are logged at error level, with their code, and the
 * store keeps running. Fatal are the errors that say our own code, or a library's, is in a state
 * it did not expect: JavaScript's own error classes for bugs (TypeError, ReferenceError, …), a
 * failed assertion, or a rejection with something that is not an Error at all. Going on after
 * one of those could write wrong data; the process stops and its supervisor starts it afresh.
 * Other errors (an Error of a library's own class, without a code we know) are logged as
 * "unclassified" and the store keeps running: they come from a task that failed (and that its
 * own retry covers), and stopping the whole store for it is what issue 30's row 1 was.
 */
export type EscapedErrorKind =
  /** An error PostgreSQL answered (any SQLSTATE), or the connection to it failing. */
  | "database"
  /** A socket, DNS or TLS failure, a timeout or an aborted call. */
  | "network"
  /** The machine out of something: disk space, quota, file handles, memory. */
  | "resource"
  /** A bug: JavaScript's error classes for them, a failed assertion, a non-Error reason. */
  | "programming"
  /** An Error of another kind: logged, not fatal (see above). */
  | "unclassified";

export interface EscapedErrorClass {
  kind: EscapedErrorKind;
  fatal: boolean;
  /** The SQLSTATE or Node error code that decided it, when there is one. */
  code?: string;
}

/**
 * SQLSTATE: five digits or upper-case letters (53100, 57P01, 08006, XX000). PostgreSQL's classes
 * start with a digit or are F0, HV, P0, XX; Node's five-letter codes (EPIPE, EROFS) are not
 * SQLSTATEs, but any five-character code on an error that carries PostgreSQL's `severity` is.
 */
const SQLSTATE = /^([0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;
const ANY_SQLSTATE = /^[0-9A-Z]{5}$/;

/** What `pg` throws, without a code, when a connection fails, dies or cannot be had in time. */
const DATABASE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "is not queryable",
  "Client has encountered a connection error",
];

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EADDRNOTAVAIL",
  "EPROTO",
  // nodemailer's codes for a connection, greeting, DNS or TLS failure and an aborted send.
  "ESOCKET",
  "ECONNECTION",
  "EDNS",
  "ETLS",
  "EABORT",
  "ERR_STREAM_PREMATURE_CLOSE",
  "ABORT_ERR",
]);
/** undici's (fetch) and Node's socket and TLS codes, by prefix. */
const NETWORK_PREFIXES = ["UND_ERR_", "ERR_SOCKET_", "ERR_TLS_", "ERR_SSL_"];
/** AbortSignal.timeout() and an aborted fetch reject with these (DOMException has no code). */
const NETWORK_NAMES = new Set(["AbortError", "TimeoutError"]);

const RESOURCE_CODES = new Set(["ENOSPC", "EDQUOT", "EMFILE", "ENFILE", "ENOMEM", "EROFS", "EIO"]);

const PROGRAMMING_CLASSES: (new (...args: never[]) => Error)[] = [
  TypeError,
  ReferenceError,
  RangeError,
  SyntaxError,
  EvalError,
  URIError,
];

/** Decides what an escaped error is and whether the process must stop for it. */
export function classifyEscapedError(reason: unknown): EscapedErrorClass {
  // The cause chain first: `fetch failed` is a TypeError whose cause is ECONNREFUSED, Drizzle
  // wraps PostgreSQL's error, an AggregateError holds one per address tried.
  for (const e of causes(reason)) {
    const { code, severity, message, name } = e as {
      code?: unknown;
      severity?: unknown;
      message?: unknown;
      name?: unknown;
    };
    if (
      typeof code === "string" &&
      (SQLSTATE.test(code) || (ANY_SQLSTATE.test(code) && typeof severity === "string"))
    ) {
      return { kind: "database", fatal: false, code };
    }
    if (typeof code === "string" && RESOURCE_CODES.has(code)) {
      return { kind: "resource", fatal: false, code };
    }
    if (
      typeof code === "string" &&
      (NETWORK_CODES.has(code) || NETWORK_PREFIXES.some((p) => code.startsWith(p)))
    ) {
      return { kind: "network", fatal: false, code };
    }
    if (typeof name === "string" && NETWORK_NAMES.has(name)) {
      return { kind: "network", fatal: false, code: typeof code === "string" ? code : name };
    }
    if (typeof message === "string" && DATABASE_MESSAGES.some((m) => message.includes(m))) {
      return { kind: "database", fatal: false, code: typeof code === "string" ? code : undefined };
    }
  }
  if (!(reason instanceof Error)) return { kind: "programming", fatal: true };
  const code = (reason as { code?: unknown }).code;
  if (
    PROGRAMMING_CLASSES.some((c) => reason instanceof c) ||
    code === "ERR_ASSERTION" ||
    reason.name === "AssertionError"
  ) {
    return { kind: "programming", fatal: true, code: typeof code === "string" ? code : undefined };
  }
  return { kind: "unclassified", fatal: false, code: typeof code === "string" ? code : undefined };
}

/** The error and what it wraps (`cause`, an AggregateError's `errors`), a few levels deep. */
function causes(reason: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== "object" || depth > 4 || out.includes(e)) return;
    out.push(e);
    visit((e as { cause?: unknown }).cause, depth + 1);
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors.slice(0, 10)) visit(inner, depth + 1);
  };
  visit(reason, 0);
  return out;
}

export interface EscapedErrorLog {
  error(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

/**
 * Installs the policy for unhandled rejections: survivable ones are logged at error level (with
 * their kind and code) and the process keeps running; a fatal one is logged and handed to
 * `onFatal`, which stops the process.
 */
export function handleEscapedErrors(
  log: () => EscapedErrorLog,
  onFatal: (reason: unknown) => void,
): void {
  process.on("unhandledRejection", (reason) => {
    const { kind, fatal, code } = classifyEscapedError(reason);
    if (fatal) {
      log().fatal({ err: reason, kind, code }, "a programming error escaped: the store stops");
      onFatal(reason);
      return;
    }
    log().error(
      { err: reason, kind, code },
      `${kind} error outside a request${code ? ` (${code})` : ""}: logged, the store keeps running`,
    );
  });
}
