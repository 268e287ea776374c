import { createHash } from "node:crypto";

/**
 * An alert's match set as stored (alert_match_sets.tokens): each token as the first 8 bytes of the
 * SHA-256 of its address, concatenated in no order. Eight bytes keep a million memberships in
 * megabytes; SHA-256 keeps tokens apart even when their addresses are chosen (anyone can pick a
 * token's address with CREATE2): giving a token the key of another one takes 2^64 tries.
 */
const KEY_HEX = 16;

/** A token's key as 16 hex digits, as it is stored. */
export const tokenKey = (address: string) => createHash("sha256").update(address).digest("hex").slice(0, KEY_HEX);

/** The keys in a stored set. */
export function unpackSet(tokens: Buffer): Set<string> {
  const hex = tokens.toString("hex");
  const keys = new Set<string>();
  for (let i = 0; i < hex.length; i += KEY_HEX) keys.add(hex.slice(i, i + KEY_HEX));
  return keys;
}

/** Keys of the tokens of the cycles, computed once per token (forgetting tokens no longer seen). */
export class TokenKeys {
  private keys = new Map<string, string>();

  of(address: string): string {
    let key = this.keys.get(address);
    if (key === undefined) this.keys.set(address, (key = tokenKey(address)));
    return key;
  }

  /**
   * A set of addresses in the stored form, as bytea text (`\x…`): send it as text and cast
   * (`::text::bytea`), since a parameter typed bytea would be taken for the string's own bytes.
   */
  pack(addresses: readonly string[]): string {
    let hex = "\\x";
    for (const a of addresses) hex += this.of(a);
    return hex;
  }

  /** Keeps only the keys of `addresses` (the cycle's tokens) once many others have piled up. */
  retain(addresses: readonly string[]) {
    if (this.keys.size <= addresses.length * 2) return;
    const kept = new Map<string, string>();
    for (const a of addresses) kept.set(a, this.of(a));
    this.keys = kept;
  }
}
