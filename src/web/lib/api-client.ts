import type { ApiError as ApiErrorBody } from "#contract/common";
import { TOTAL_COUNT_HEADER } from "#contract/constants";
import { IDEMPOTENCY_KEY_HEADER } from "#contract/idempotency";

/** An error answered by the API, with its `{ error, message }` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The address of an API path (`/products` → `/api/products`). */
export const apiUrl = (path: string) => `/api${path}`;

async function request(path: string, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  // FormData sets its own multipart content type, boundary included.
  const json = init?.body !== undefined && !(init.body instanceof FormData);
  if (json && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  const res = await fetch(apiUrl(path), { credentials: "same-origin", ...init, headers });
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => undefined);
    if (isApiErrorBody(body)) throw new ApiError(res.status, body.error, body.message, body.fields);
    throw new ApiError(res.status, "http_error", `The server answered ${res.status}`);
  }
  return res;
}

export async function apiGet<T>(path: string): Promise<T> {
  const res = await request(path);
  return (await res.json()) as T;
}

/** A paged list: the items and the total from the X-Total-Count header. */
export async function apiGetPage<T>(path: string): Promise<{ items: T[]; total: number }> {
  const res = await request(path);
  const items = (await res.json()) as T[];
  return { items, total: Number(res.headers.get(TOTAL_COUNT_HEADER) ?? items.length) };
}

/**
 * A write; `idempotencyKey` names one attempt of it (`submissionKeys`, lib/idempotency.ts) on the
 * routes that take one (docs/idempotency.md).
 */
export async function apiSend<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  { idempotencyKey }: { idempotencyKey?: string } = {},
): Promise<T> {
  const res = await request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers:
      idempotencyKey === undefined ? undefined : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Sends a file, or several, as multipart/form-data, each under the form field `field`. */
export async function apiUpload<T>(
  path: string,
  field: string,
  files: File | readonly File[],
): Promise<T> {
  const form = new FormData();
  for (const file of files instanceof File ? [files] : files) form.append(field, file);
  const res = await request(path, { method: "POST", body: form });
  return (await res.json()) as T;
}

/** Builds `?a=1&b=2` from the defined values; a list repeats its parameter (`?attr=x&attr=y`). */
export function toQueryString(
  params: Record<string, string | number | readonly string[] | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const item of v as readonly string[]) search.append(k, item);
    else if (v !== undefined && v !== "") search.set(k, String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : "";
}

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.error === "string" && typeof b.message === "string";
}
