import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_CHARS,
  API_KEY_SECRET_CHARS,
  API_KEY_START,
} from "../../contract/api-keys";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The largest multiple of 62 a byte holds: bytes from here up are skipped, so no letter is likelier. */
const UNBIASED_BELOW = 62 * 4;

/** `n` random letters and digits, each of the 62 equally likely (bytes ≥ 248 are drawn again). */
export function randomBase62(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const byte of randomBytes(n + 8)) {
      if (byte < UNBIASED_BELOW) out += BASE62[byte % 62];
      if (out.length === n) break;
    }
  }
  return out;
}

/** A new key: `pw_` + 8 (its prefix, shown in the list), `_`, 43 (the secret: 256 random bits). */
export function newApiKey(): { key: string; prefix: string; secretHash: string } {
  const prefix = `${API_KEY_START}${randomBase62(API_KEY_PREFIX_CHARS)}`;
  const key = `${prefix}_${randomBase62(API_KEY_SECRET_CHARS)}`;
  return { key, prefix, secretHash: hashApiKey(key) };
}

/**
 * SHA-256 of the whole key, in hex: what the table keeps. A fast hash is right here: the key is
 * 256 random bits, not a password, so there is nothing to guess faster by trying.
 */
export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** The prefix of a well-formed key (the row to look up), or undefined for anything else. */
export function prefixOf(key: string): string | undefined {
  if (!API_KEY_PATTERN.test(key)) return undefined;
  return key.slice(0, API_KEY_START.length + API_KEY_PREFIX_CHARS);
}

/** Whether `key` hashes to `storedHash`, compared in constant time. */
export function keyMatches(key: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKey(key), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}
