import { createHash, randomBytes } from "node:crypto";

/** Key secrets: `ocd_live_` + 32 base62 characters (~190 bits), stored only as SHA-256. */
export const KEY_PREFIX = "ocd_live_";
const KEY_PATTERN = /^ocd_live_[0-9A-Za-z]{32}$/;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const DISPLAY_CHARS = 4;

/** Uniform base62 string by rejection sampling (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const generateKeySecret = () => KEY_PREFIX + randomBase62(32);
export const isWellFormedKey = (secret: string) => KEY_PATTERN.test(secret);
export const hashKey = (secret: string) => createHash("sha256").update(secret).digest("hex");
/** What may be shown and stored in clear: the prefix and the first few random characters. */
export const displayPrefix = (secret: string) => secret.slice(0, KEY_PREFIX.length + DISPLAY_CHARS);
export const newId = (kind: string) => `${kind}_${randomBase62(20)}`;
