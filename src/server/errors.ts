import type { ErrorCode } from "../contract/errors";

/**
 * An error that the error handler turns into `{ error, message }` with its status. An answer to
 * the caller (below 500: a refusal, often an expected one such as "out of stock") carries no
 * stack: it is never logged, and capturing one costs microseconds on every refusal.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    const limit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const notFound = (message = "Not found") => new HttpError(404, "not_found", message);
export const forbidden = (message = "You are not allowed to do this") =>
  new HttpError(403, "forbidden", message);
export const unauthorized = (message = "Please sign in") =>
  new HttpError(401, "unauthorized", message);
/** A 409; with `field`, the same words stand beside that field (a name another record has). */
export const conflict = (message: string, field?: string) =>
  new HttpError(409, "conflict", message, field === undefined ? undefined : { [field]: message });
/** A 422 (a rule of the store's broken); with `field`, the same words stand beside that field. */
export const unprocessable = (message: string, field?: string) =>
  new HttpError(
    422,
    "rule_broken",
    message,
    field === undefined ? undefined : { [field]: message },
  );
/** A 400 on one field of what was sent: the message, and the same words beside the field. */
export const fieldError = (field: string, message: string) =>
  new HttpError(400, "validation", message, { [field]: message });

/** What a customer whose account was removed is told. */
export const ACCOUNT_GONE_MESSAGE = "Your account no longer exists";

/** What every request that needs the database hears while it is away or overloaded. */
export const UNAVAILABLE_MESSAGE = "The store is busy or restarting; please try again in a moment.";
export const unavailable = () => new HttpError(503, "unavailable", UNAVAILABLE_MESSAGE);
/** What a request hears that waited too long for a locked row, or was refused for overload. */
export const BUSY_MESSAGE = "The store is busy. Please try again in a moment.";

/** The disk under the database or the uploads is full: nothing was written. */
export const DISK_FULL_MESSAGE =
  "The store cannot save anything right now (its disk is full). Nothing was changed; please try again later.";
export const diskFull = () => new HttpError(507, "insufficient_storage", DISK_FULL_MESSAGE);
