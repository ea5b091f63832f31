import { formatCount, plural } from "./count";
import { z } from "zod";
import { wholeNumber } from "./common";
import { text } from "./text";

// API keys (docs/api-keys.md): an admin makes a key for another system (a manufacturer's ERP,
// a warehouse system), with scopes, an optional expiry and a rate limit. The system sends it as
// `Authorization: Bearer <key>` and acts as that admin, within the key's scopes only.

/** Every scope a key can hold, in the order the admin's form lists them. */
export const apiScopes = [
  "catalog:read",
  "catalog:write",
  "inventory:write",
  "prices:write",
  "orders:read",
  "orders:write",
  "customers:read",
  "webhooks:manage",
] as const;
export type ApiScope = (typeof apiScopes)[number];

/** What each scope opens, in the admin's words (docs/api-keys.md lists the routes). */
export const apiScopeLabels: Record<ApiScope, string> = {
  "catalog:read": "Read products, vehicles, fitment, attributes and catalog imports",
  "catalog:write": "Add, edit and remove products, fitment, vehicles, attributes; import files",
  "inventory:write": "Set stock and reorder levels",
  "prices:write": "Set list prices, core deposits, price lists and their entries",
  "orders:read": "Read orders, holds, invoices, returns and refunds",
  "orders:write": "Change order status, ship, record payments, decide returns and refunds",
  "customers:read": "Read users and companies",
  "webhooks:manage": "Manage webhook endpoints, read the delivery log, replay deliveries",
};

/** Every key starts with this, then 8 letters and digits (its visible prefix), `_` and the secret. */
export const API_KEY_START = "pw_";
/** Letters and digits of the prefix after `pw_`. */
export const API_KEY_PREFIX_CHARS = 8;
/** Letters and digits of the secret: 62^43 > 2^256, as many guesses as 32 random bytes. */
export const API_KEY_SECRET_CHARS = 43;
/** A key as it is written: `pw_` + 8, `_`, 43 letters and digits. */
export const API_KEY_PATTERN = /^pw_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}$/;

export const MAX_API_KEY_NAME = 60;
/** Requests a minute a key may make unless the admin says otherwise. */
export const DEFAULT_API_KEY_RATE = 600;
export const MAX_API_KEY_RATE = 100_000;

export const apiKeyStatuses = ["active", "expired", "revoked"] as const;
export type ApiKeyStatus = (typeof apiKeyStatuses)[number];
export const apiKeyStatusLabels: Record<ApiKeyStatus, string> = {
  active: "Active",
  expired: "Expired",
  revoked: "Revoked",
};

/** "a", "a and b", "a, b and c". */
const inWords = (list: readonly string[], last: "and" | "or") =>
  list.length <= 1 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} ${last} ${list.at(-1)}`;

/** Words the API and the admin's page use, word for word. */
export const apiKeyMessages = {
  name: `Name the key in 1 to ${MAX_API_KEY_NAME} characters`,
  scopes: "Choose at least one scope",
  scope: "Not a scope of API keys",
  rate: `The rate limit is a whole number of requests a minute, from 1 to ${formatCount(MAX_API_KEY_RATE)}`,
  expiry: "Give the expiry as a date and time",
  expiryPast: "The expiry must be in the future",
  change: "Change at least one field",
  id: "Not an API key id",
  taken: (name: string) => `An API key named ${name} already exists`,
  notFound: "API key not found",
  revokedAlready: "This API key is already revoked",
  revokedNoChange: "A revoked API key cannot be changed or rotated",
  // What a caller with a key is told (401, 403, 429).
  unknown: "This API key is not valid: check that it was copied whole",
  revoked: "This API key was revoked",
  expired: "This API key has expired",
  creatorGone: "This API key's creator is no longer an admin",
  missingScopes: (scopes: readonly string[]) =>
    `This API key does not have the ${inWords(scopes, "and")} scope${scopes.length === 1 ? "" : "s"}`,
  needsOneOf: (scopes: readonly string[]) =>
    scopes.length === 1
      ? `This API key does not have the ${scopes[0]} scope`
      : `This API key needs one of the scopes ${inWords(scopes, "or")}`,
  notForKeys: "API keys cannot call this route",
  tooMany: (perMinute: number, retryAfter: number) =>
    `This API key may make ${formatCount(perMinute)} requests a minute: wait ${plural(retryAfter, "second")} and try again`,
  // The admin's page.
  copyNow: "Copy this key now: it will not be shown again.",
  copyFailed: "The browser did not let the page copy: select the key and copy it yourself.",
  created: (name: string) => `API key ${name} created`,
  saved: (name: string) => `API key ${name} saved`,
  rotated: (name: string) => `API key ${name} rotated`,
  revokedDone: (name: string) => `API key ${name} revoked`,
  rotateTitle: (name: string) => `Rotate the API key ${name}?`,
  rotateBody:
    "A new secret is made with the same scopes, expiry and rate limit. The current key stops working at once: every system using it needs the new one.",
  revokeTitle: (name: string) => `Revoke the API key ${name}?`,
  revokeBody:
    "Every system using it is refused from now on. The key stays in the list, marked Revoked, for the audit log.",
  empty: "No API keys yet: create one for a system that calls the store.",
} as const;

export const apiScopeSchema = z.enum(apiScopes, { error: apiKeyMessages.scope });

const apiKeyName = text({ error: apiKeyMessages.name })
  .trim()
  .min(1, apiKeyMessages.name)
  .max(MAX_API_KEY_NAME, apiKeyMessages.name);
const apiKeyScopeList = z
  .array(apiScopeSchema, { error: apiKeyMessages.scopes })
  .min(1, apiKeyMessages.scopes)
  .max(apiScopes.length, apiKeyMessages.scopes)
  // Each once, in the contract's order.
  .transform((list) => apiScopes.filter((s) => list.includes(s)));
const apiKeyExpiry = z.iso.datetime({ offset: true, error: apiKeyMessages.expiry });
const apiKeyRate = wholeNumber(apiKeyMessages.rate, 1, MAX_API_KEY_RATE);

/** `POST /api/api-keys`: a new key (its secret is answered once). */
export const apiKeyCreateSchema = z.strictObject({
  name: apiKeyName,
  scopes: apiKeyScopeList,
  /** Null or left out: never. Must be in the future. */
  expiresAt: apiKeyExpiry.nullable().optional(),
  rateLimitPerMinute: apiKeyRate.optional(),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** `PATCH /api/api-keys/:id`: any of these (null expiry: never). */
export const apiKeyChangeSchema = z
  .strictObject({
    name: apiKeyName.optional(),
    scopes: apiKeyScopeList.optional(),
    expiresAt: apiKeyExpiry.nullable().optional(),
    rateLimitPerMinute: apiKeyRate.optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), apiKeyMessages.change);
export type ApiKeyChange = z.infer<typeof apiKeyChangeSchema>;

export const apiKeyParamsSchema = z.object({ id: z.uuid({ error: apiKeyMessages.id }) });

/** A key as the admin's list shows it: never its secret. */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The visible start of the key, `pw_` and 8 letters and digits. */
  prefix: z.string(),
  scopes: z.array(apiScopeSchema),
  rateLimitPerMinute: z.number().int(),
  /** The admin who made it (null once their account is removed). */
  createdByEmail: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
  status: z.enum(apiKeyStatuses),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** A key just made or rotated, with its whole secret: shown once, never again. */
export const apiKeyIssuedSchema = z.object({
  apiKey: apiKeySchema,
  key: z.string(),
});
export type ApiKeyIssued = z.infer<typeof apiKeyIssuedSchema>;
