import { hotp, totpStep } from "../../src/server/auth/totp";

/** RFC 4648 base32 (no padding needed), as in otpauth:// secrets. */
function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/=+$/, "").toUpperCase()) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** Per secret: the last time-step handed out, and how many times. */
const handedOut = new Map<string, { step: number; times: number }>();

/**
 * RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) for an otpauth:// URI's secret: the code
 * at `at`, or without it, a code the store will still take now. The store takes a code once to
 * sign in and once for each action that asks for one (auth/second-factor.ts), and accepts the
 * next step's code early, as authenticator clocks drift: so a step's code is handed out for two
 * uses in a row, then the next step's (up to the one after the current), as a person types the
 * code on screen and then waits for the next one.
 */
export function totpCode(otpauthUri: string, at?: number): string {
  const secret = new URL(otpauthUri).searchParams.get("secret");
  if (!secret) throw new Error("no secret in the otpauth URI");
  const key = base32Decode(secret);
  if (at !== undefined) return hotp(key, totpStep(at));
  const now = totpStep(Date.now());
  const last = handedOut.get(secret);
  const step =
    !last || last.step < now ? now : last.times < 2 ? last.step : Math.min(last.step + 1, now + 1);
  handedOut.set(secret, { step, times: last?.step === step ? last.times + 1 : 1 });
  return hotp(key, step);
}
