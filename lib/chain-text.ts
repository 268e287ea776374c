/**
 * Untrusted text from the chain, cleaned where it enters. Anyone can
 * deploy a token and pick its name: every string the indexer reads from the chain (name() and
 * symbol() answers, launchpad event strings) goes through this module before it is stored.
 *
 * Decoding is lenient: an ABI `string`, a `bytes32` (older tokens), a truncated or malformed
 * answer and invalid UTF-8 all give text (invalid sequences become U+FFFD) or null, never an
 * exception. Cleaning removes NUL and the other C0/C1 controls (line breaks and tabs become a
 * space), the bidirectional formatting characters that reorder what a reader sees (U+202A-202E,
 * U+2066-2069, U+200E/U+200F, U+061C) and a few invisible ones (U+200B, U+2060-2064, U+FEFF,
 * lone surrogates, noncharacters U+FFFE/U+FFFF), normalizes to NFC, collapses runs of white
 * space, trims and caps the length in code points (a surrogate pair is never split). Escaping
 * for HTML or email stays the renderer's job; this only makes the text storable and honest.
 *
 * Fallbacks when a token gives no usable text (reverting, missing or empty name()/symbol()):
 * the symbol is the address's first six hex digits ("0xab12cd"), the name the symbol if there is
 * one, else the short address ("0xab12…cd34"). What users of token lists expect: something that
 * identifies the contract, never an empty cell, and never a made-up word like "UNKNOWN" that
 * hundreds of unrelated tokens would share.
 */

/** Longest name and symbol kept, in code points. */
export const NAME_MAX = 64;
export const SYMBOL_MAX = 16;
/** Bytes of a string answer decoded at most: far more than any cap needs, bounded against huge answers. */
const MAX_DECODED_BYTES = 4_096;

/** Text as decoded from the chain, before cleaning; `invalidUtf8` when bytes were replaced. */
export type RawChainText = { text: string; invalidUtf8: boolean };

const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** Bytes of a 0x-hex string; null when it is not whole bytes of hex. */
export function hexBytes(hex: string | null | undefined): Uint8Array | null {
  if (typeof hex !== "string" || !HEX.test(hex)) return null;
  const out = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}

/** The 32-byte word at byte offset `at` as an unsigned integer; null past the end. */
export function wordAt(bytes: Uint8Array, at: number): bigint | null {
  if (at < 0 || at + 32 > bytes.length) return null;
  let v = 0n;
  for (let i = at; i < at + 32; i++) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 bytes as text: invalid sequences become U+FFFD and are reported. */
export function utf8(bytes: Uint8Array): RawChainText {
  const slice = bytes.subarray(0, MAX_DECODED_BYTES);
  try {
    return { text: strict.decode(slice), invalidUtf8: false };
  } catch {
    return { text: lenient.decode(slice), invalidUtf8: true };
  }
}

/**
 * The ABI `string` whose head word sits at byte `headAt` of `bytes` (an offset to a length and
 * the bytes). A length running past the end keeps what is there. Null when the offset or the
 * length word is not inside the data.
 */
export function abiStringAt(bytes: Uint8Array, headAt: number): RawChainText | null {
  const offset = wordAt(bytes, headAt);
  if (offset === null || offset > BigInt(bytes.length)) return null;
  const length = wordAt(bytes, Number(offset));
  if (length === null) return null;
  const start = Number(offset) + 32;
  const end = length > BigInt(bytes.length - start) ? bytes.length : start + Number(length);
  return utf8(bytes.subarray(start, end));
}

/** A bytes32 string: the text up to the first NUL (the rest is padding). */
function bytes32Text(word: Uint8Array): RawChainText {
  const nul = word.indexOf(0);
  return utf8(nul < 0 ? word : word.subarray(0, nul));
}

/**
 * The answer of a name() or symbol() eth_call: an ABI string, or a bytes32 (exactly one word,
 * or a malformed string whose first word reads as text). Null for no answer, a revert (the
 * caller passes null), or data that is neither.
 */
export function decodeStringResult(data: string | null | undefined): RawChainText | null {
  const bytes = hexBytes(data);
  if (!bytes || bytes.length < 32) return null;
  if (bytes.length === 32) return bytes32Text(bytes);
  return abiStringAt(bytes, 0) ?? bytes32Text(bytes.subarray(0, 32));
}

/**
 * The answer of a uint8/uint256 eth_call (decimals(), totalSupply()): the first word, or null
 * for no answer or less than a word.
 */
export function decodeUintResult(data: string | null | undefined): bigint | null {
  const bytes = hexBytes(data);
  return bytes ? wordAt(bytes, 0) : null;
}

// Line breaks and tabs read as a space; other controls, bidi formats and invisibles go.
const SPACE_LIKE = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
const REMOVED = /[\p{Cc}\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFFE\uFFFF]|\p{Cs}/gu;

/** Cleaned text: `changed` when anything beyond NFC and outer white space was removed or cut. */
export function cleanChainText(raw: string, maxCodePoints: number): { text: string; changed: boolean } {
  const normalized = raw.normalize("NFC");
  const stripped = normalized
    .replace(SPACE_LIKE, " ")
    .replace(REMOVED, "")
    .normalize("NFC")
    .replace(/\s+/gu, " ")
    .trim();
  const points = Array.from(stripped);
  const text = points.length > maxCodePoints ? points.slice(0, maxCodePoints).join("").trimEnd() : stripped;
  return { text, changed: text !== normalized.trim() };
}

/** What a token's stored name and symbol carry about how they were obtained (tokens.anomalies). */
export type TextAnomaly = "text_cleaned" | "metadata_fallback";

export const fallbackSymbol = (address: string) => address.slice(0, 8);
export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * A token's name and symbol as stored: cleaned and capped, with the fallbacks above for missing
 * or empty ones, and the anomalies that say what happened ("text_cleaned": characters removed,
 * invalid UTF-8 replaced or text cut; "metadata_fallback": a fallback stands in).
 */
export function tokenText(
  address: string,
  raw: { name: RawChainText | null; symbol: RawChainText | null },
): { name: string; symbol: string; anomalies: TextAnomaly[] } {
  const anomalies = new Set<TextAnomaly>();
  const clean = (r: RawChainText | null, max: number) => {
    if (!r) return "";
    const c = cleanChainText(r.text, max);
    if (c.changed || r.invalidUtf8) anomalies.add("text_cleaned");
    return c.text;
  };
  const symbol = clean(raw.symbol, SYMBOL_MAX);
  const name = clean(raw.name, NAME_MAX);
  if (!symbol || !name) anomalies.add("metadata_fallback");
  return {
    name: name || symbol || shortAddress(address),
    symbol: symbol || fallbackSymbol(address),
    anomalies: [...anomalies],
  };
}
