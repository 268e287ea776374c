import { encodeAbiParameters, stringToHex, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  abiStringAt,
  cleanChainText,
  decodeStringResult,
  decodeUintResult,
  hexBytes,
  NAME_MAX,
  SYMBOL_MAX,
  tokenText,
} from "./chain-text";

const ADDRESS = "0xab12cd34ef56ab12cd34ef56ab12cd34ef561234";
const abiString = (s: string) => encodeAbiParameters([{ type: "string" }], [s]);
const abiBytes = (hex: `0x${string}`) => encodeAbiParameters([{ type: "bytes" }], [hex]);
const bytes32 = (s: string) => stringToHex(s, { size: 32 });

describe("cleanChainText", () => {
  it("removes NUL, C0 and C1 controls and the bidi formatting characters", () => {
    const raw =
      "A\u0000B\u0007C\u001bD\u007fE\u0080F\u009fG" +
      "\u202aH\u202bI\u202cJ\u202dK\u202eL\u2066M\u2067N\u2068O\u2069P\u200eQ\u200fR\u061cS";
    expect(cleanChainText(raw, 100)).toEqual({ text: "ABCDEFGHIJKLMNOPQRS", changed: true });
  });

  it("reads line breaks and tabs as one space, collapses white space and trims", () => {
    expect(cleanChainText("  Moon\n\tDog\r\n\u2028 Coin  ", 64).text).toBe("Moon Dog Coin");
  });

  it("removes invisible characters and lone surrogates but keeps emoji sequences", () => {
    expect(cleanChainText("Zero\u200bWidth\ufeff", 64).text).toBe("ZeroWidth");
    expect(cleanChainText("lone\ud800surrogate", 64).text).toBe("lonesurrogate");
    const family = "👨\u200d👩\u200d👧";
    expect(cleanChainText(`Family ${family}`, 64)).toEqual({ text: `Family ${family}`, changed: false });
  });

  it("normalizes to NFC", () => {
    expect(cleanChainText("Cafe\u0301", 64)).toEqual({ text: "Café", changed: false });
  });

  it("caps in code points without splitting a surrogate pair", () => {
    const text = cleanChainText("🚀".repeat(20), SYMBOL_MAX).text;
    expect(Array.from(text)).toHaveLength(SYMBOL_MAX);
    expect(text).toBe("🚀".repeat(SYMBOL_MAX));
    expect(text.length).toBe(2 * SYMBOL_MAX);
    const cut = cleanChainText(`${"x".repeat(63)}🚀🚀`, NAME_MAX);
    expect(cut).toEqual({ text: `${"x".repeat(63)}🚀`, changed: true });
  });

  it("leaves markup to the renderer: it is text, not an attack on storage", () => {
    expect(cleanChainText("<script>alert(1)</script>", 64)).toEqual({
      text: "<script>alert(1)</script>",
      changed: false,
    });
  });

  it("cleans the reported launch name into a storable one", () => {
    const reported = `Evil\u0000\u202E<script>alert(1)</script>${"x".repeat(300)}`;
    const { text, changed } = cleanChainText(reported, NAME_MAX);
    expect(changed).toBe(true);
    expect(text).not.toMatch(/[\u0000\u202e]/);
    expect(text.startsWith("Evil<script>alert(1)</script>x")).toBe(true);
    expect(Array.from(text)).toHaveLength(NAME_MAX);
  });
});

describe("decoding answers leniently", () => {
  it("reads an ABI string, a bytes32 and a malformed string without throwing", () => {
    expect(decodeStringResult(abiString("Moon Dog"))).toEqual({ text: "Moon Dog", invalidUtf8: false });
    expect(decodeStringResult(bytes32("MKR"))).toEqual({ text: "MKR", invalidUtf8: false });
    // An offset past the end: the first word read as a bytes32 (here: nothing printable).
    const badOffset = `0x${"ff".repeat(32)}${"00".repeat(32)}` as const;
    expect(decodeStringResult(badOffset)?.invalidUtf8).toBe(true);
    // A length past the end keeps what is there.
    const truncated = abiString("Truncated name").slice(0, 2 + 64 * 2 + 2 * 5);
    expect(decodeStringResult(truncated)).toEqual({ text: "Trunc", invalidUtf8: false });
  });

  it("replaces invalid UTF-8 and reports it", () => {
    const r = decodeStringResult(abiBytes("0xff fe4f4b".replace(" ", "") as `0x${string}`));
    expect(r).toEqual({ text: "\ufffd\ufffdOK", invalidUtf8: true });
  });

  it("gives null for no answer, short answers and non-hex", () => {
    for (const data of [null, undefined, "0x", "0x1234", "not hex", "0xabc"])
      expect(decodeStringResult(data)).toBeNull();
    expect(decodeUintResult("0x")).toBeNull();
    expect(decodeUintResult(toHex(36, { size: 32 }))).toBe(36n);
    expect(decodeUintResult(`0x${"ff".repeat(32)}`)).toBe(2n ** 256n - 1n);
  });

  it("reads strings at any head position (event data)", () => {
    const data = encodeAbiParameters(
      [{ type: "string" }, { type: "string" }, { type: "uint256" }],
      ["Name", "SYM", 5n],
    );
    const bytes = hexBytes(data)!;
    expect(abiStringAt(bytes, 0)?.text).toBe("Name");
    expect(abiStringAt(bytes, 32)?.text).toBe("SYM");
    expect(abiStringAt(bytes, bytes.length)).toBeNull();
    expect(abiStringAt(hexBytes(`0x${"00".repeat(31)}ff${"00".repeat(32)}`)!, 0)).toBeNull();
  });
});

describe("tokenText", () => {
  it("keeps clean names as they are", () => {
    expect(
      tokenText(ADDRESS, {
        name: { text: "Moon Dog", invalidUtf8: false },
        symbol: { text: "MDOG", invalidUtf8: false },
      }),
    ).toEqual({
      name: "Moon Dog",
      symbol: "MDOG",
      anomalies: [],
    });
  });

  it("falls back to the address when name and symbol are missing or clean to nothing", () => {
    expect(tokenText(ADDRESS, { name: null, symbol: null })).toEqual({
      name: "0xab12…1234",
      symbol: "0xab12cd",
      anomalies: ["metadata_fallback"],
    });
    expect(
      tokenText(ADDRESS, {
        name: { text: "\u0000\u202e", invalidUtf8: false },
        symbol: { text: "SYM", invalidUtf8: false },
      }),
    ).toEqual({
      name: "SYM",
      symbol: "SYM",
      anomalies: ["text_cleaned", "metadata_fallback"],
    });
  });

  it("marks cleaned and invalid UTF-8 text", () => {
    const t = tokenText(ADDRESS, {
      name: { text: "A\ufffdB", invalidUtf8: true },
      symbol: { text: "S\u0000Y", invalidUtf8: false },
    });
    expect(t).toEqual({ name: "A\ufffdB", symbol: "SY", anomalies: ["text_cleaned"] });
  });
});
