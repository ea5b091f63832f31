import { createHmac, timingSafeEqual } from "node:crypto";

/** Better Auth's TOTP (its two-factor plugin's defaults): 30-second steps, 6 digits, HMAC-SHA1. */
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;

/** RFC 4226's HOTP: the code of `key` for one counter (a TOTP time-step). */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(n).padStart(DIGITS, "0");
}

/** The TOTP time-step of an instant (milliseconds since the epoch). */
export const totpStep = (at: number) => Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The time-step whose code `code` is, among those Better Auth's check accepts at `now` (the step
 * before, the current one and the next), or undefined: which code was used, so that it can be
 * taken once (its check only says yes or no).
 */
export function matchingStep(key: Buffer, code: string, now = Date.now()): number | undefined {
  const given = Buffer.from(code);
  const current = totpStep(now);
  let found: number | undefined;
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(hotp(key, step));
    if (given.length === expected.length && timingSafeEqual(given, expected)) found ??= step;
  }
  return found;
}
