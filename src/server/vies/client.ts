/**
 * A client of VIES, the European Commission's register of EU VAT numbers, through its REST API
 * (docs/tax.md "VIES"): `POST {VIES_URL}/check-vat-number` with `{ countryCode, vatNumber }` (and
 * the store's own VAT number as the requester, which makes VIES give a consultation number).
 * Every call ends within its timeout; whatever is not a clear "valid" or "invalid" (a timeout, an
 * HTTP error, MS_UNAVAILABLE, an unreadable body) is "unanswered", never thrown.
 */

/** The Commission's REST API (VIES_URL's default). */
export const VIES_DEFAULT_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api";

/** What VIES said of a VAT number. */
export type ViesAnswer =
  | {
      kind: "valid" | "invalid";
      /** When VIES says it checked (its `requestDate`; the call's time when it gave none). */
      checkedAt: Date;
      /** Its `requestIdentifier`: given only when the request names a requester. */
      consultationNumber: string | null;
      name: string | null;
      address: string | null;
    }
  | { kind: "unanswered"; reason: string };

export interface ViesClient {
  /** Checks a VAT number written with its prefix (DE123456789, EL… for Greece). */
  check(vatId: string): Promise<ViesAnswer>;
}

/** The longest answer read: VIES's are a few hundred bytes. */
const MAX_BODY_CHARS = 64 * 1024;

/** A text field of the answer, or null when it is empty. */
const text = (v: unknown): string | null => {
  if (typeof v !== "string") return null;
  const t = v.trim();
  // VIES writes "---" where a member state does not give the trader's name or address.
  return t === "" || t === "---" ? null : t;
};

/** Splits DE123456789 into its prefix and number, as VIES takes them. */
export function viesParts(vatId: string): { countryCode: string; vatNumber: string } {
  return { countryCode: vatId.slice(0, 2).toUpperCase(), vatNumber: vatId.slice(2) };
}

export function createViesClient(opts: {
  /** VIES_URL, without the trailing slash. */
  url: string;
  timeoutMs: number;
  /** The store's own EU VAT number (SELLER_TAX_ID), when it has one: VIES then gives a consultation number. */
  requesterVatId?: string | null;
  now?: () => Date;
}): ViesClient {
  const base = opts.url.replace(/\/+$/, "");
  const now = opts.now ?? (() => new Date());
  const requester = opts.requesterVatId ? viesParts(opts.requesterVatId) : null;

  return {
    async check(vatId) {
      const body = {
        ...viesParts(vatId),
        ...(requester && {
          requesterMemberStateCode: requester.countryCode,
          requesterNumber: requester.vatNumber,
        }),
      };
      let status: number;
      let raw: string;
      try {
        // One signal for the whole call: the connection, the headers and the body.
        const res = await fetch(`${base}/check-vat-number`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs),
          redirect: "error",
        });
        status = res.status;
        raw = await res.text();
      } catch (err) {
        const name = err instanceof Error ? err.name : "";
        return {
          kind: "unanswered",
          reason:
            name === "TimeoutError" || name === "AbortError"
              ? `no answer within ${Math.round(opts.timeoutMs / 100) / 10} s`
              : "could not reach VIES",
        };
      }
      return readAnswer(status, raw, now());
    },
  };
}

/** Pure: VIES's HTTP answer as a `ViesAnswer`. */
export function readAnswer(status: number, raw: string, at: Date): ViesAnswer {
  if (raw.length > MAX_BODY_CHARS) return { kind: "unanswered", reason: "an answer too long" };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = null;
  }
  const o = json !== null && typeof json === "object" ? (json as Record<string, unknown>) : null;
  // Errors come as { actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE", … }] }.
  const wrapped = Array.isArray(o?.errorWrappers)
    ? (o.errorWrappers as unknown[])
        .map((w) => text((w as Record<string, unknown> | null)?.error))
        .filter((e): e is string => e !== null)
    : [];
  if (wrapped.length > 0) return { kind: "unanswered", reason: wrapped.join(", ") };
  if (status < 200 || status > 299) return { kind: "unanswered", reason: `HTTP ${status}` };
  if (!o) return { kind: "unanswered", reason: "an answer that is not JSON" };
  const userError = text(o.userError);
  if (userError && userError !== "VALID" && userError !== "INVALID") {
    return { kind: "unanswered", reason: userError };
  }
  const valid =
    typeof o.valid === "boolean" ? o.valid : typeof o.isValid === "boolean" ? o.isValid : null;
  if (valid === null) return { kind: "unanswered", reason: "an answer without validity" };
  const date = typeof o.requestDate === "string" ? new Date(o.requestDate) : null;
  return {
    kind: valid ? "valid" : "invalid",
    checkedAt: date && !Number.isNaN(date.getTime()) ? date : at,
    consultationNumber: text(o.requestIdentifier),
    name: text(o.name) ?? text(o.traderName),
    address: text(o.address) ?? text(o.traderAddress),
  };
}
