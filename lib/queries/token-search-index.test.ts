import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import type { Snapshot } from "./token-list-index";
import { findTokens, nameIndex } from "./token-search-index";

const N = 12_000;
const random = mulberry32(7);
const pick = (s: string) => s[Math.floor(random() * s.length)];
const word = (alphabet: string, min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(alphabet)).join("");

// Few letters, so one-letter prefixes match thousands (the walk of the rank order) and longer ones a few.
const addresses = Array.from({ length: N }, () => `0x${word("0123456789abcdef", 40, 40)}`).sort();
const symbols = addresses.map(() => word("aaaabcdé%_", 1, 5));
const names = addresses.map(() => word("abcdef ", 3, 12));
// No value (NaN), zeros and repeated values, so ties fall to volume and then to address.
const value = () => (random() < 0.2 ? Number.NaN : random() < 0.2 ? 0 : Math.floor(random() * 50) * 1000);
const liquidity = Float64Array.from(addresses, value);
const volume = Float64Array.from(addresses, value);
const snapshot: Snapshot = {
  version: 1,
  addresses,
  byAddress: Int32Array.from(addresses, (_, i) => i),
  lineage: {},
  columns: { liquidityUsd: liquidity, volume24hUsd: volume },
  loading: {},
  flags: new Int32Array(N),
  order: new Map(),
  pass: new Uint8Array(N),
  readAt: { snapshot: "", table: 0 },
  rowsRead: N,
};
const index = nameIndex(snapshot, symbols, names);

/** The matches and their order, by brute force. */
function expected(q: string, byAddress: boolean) {
  const zero = (x: number) => (Number.isNaN(x) ? 0 : x);
  const exact = (i: number) => Number(symbols[i] === q || addresses[i] === q);
  return addresses
    .map((_, i) => i)
    .filter((i) => symbols[i].startsWith(q) || names[i].startsWith(q) || (byAddress && addresses[i].startsWith(q)))
    .sort(
      (a, b) =>
        exact(b) - exact(a) || zero(liquidity[b]) - zero(liquidity[a]) || zero(volume[b]) - zero(volume[a]) || a - b,
    )
    .map((i) => ({
      address: addresses[i],
      matched: symbols[i].startsWith(q) ? "symbol" : names[i].startsWith(q) ? "name" : "address",
    }));
}

describe("findTokens", () => {
  const queries: [string, boolean][] = [
    ...["a", "b", "ab", "aab", "é", "%", "_", "c d", "abc", "zzz", "d", "a%"].map((q): [string, boolean] => [q, false]),
    ...symbols.slice(0, 20).map((q): [string, boolean] => [q, false]),
    [addresses[17], true],
    [addresses[17].slice(0, 4), true],
    ["0x", true],
    ["0xa", true],
  ];

  it.each(
    queries,
  )("q=%s (addresses: %s): every page of the matches in rank order, exact first, the exact total", (q, byAddress) => {
    const all = expected(q, byAddress);
    for (const [offset, limit] of [
      [0, 20],
      [0, 200],
      [37, 50],
      [Math.max(0, all.length - 5), 20],
      [all.length + 10, 20],
    ]) {
      const found = findTokens(snapshot, index, q, byAddress, { offset, limit });
      expect(found.total).toBe(all.length);
      expect(found.matches).toEqual(all.slice(offset, offset + limit));
    }
  });

  it.each([
    ["a", false],
    ["ab", false],
    ["0x", true],
  ] as [
    string,
    boolean,
  ][])("q=%s: a walk after each page's last match lists every match once, in rank order", (q, byAddress) => {
    const all = expected(q, byAddress);
    const walked: typeof all = [];
    let after: ReturnType<typeof findTokens>["last"] | undefined;
    for (let more = true; more; ) {
      const page = findTokens(snapshot, index, q, byAddress, { offset: 0, limit: 97, after: after ?? undefined });
      walked.push(...page.matches);
      expect(page.more).toBe(walked.length < all.length);
      after = page.last;
      more = page.more;
    }
    expect(walked).toEqual(all);
  });

  it("walks the rank order for a prefix matching thousands", () => {
    expect(expected("a", false).length).toBeGreaterThan(5_000);
  });

  it("finds the same with positions out of address order (as a snapshot carried from another has them)", () => {
    const perm = Array.from({ length: N }, (_, i) => i).sort(() => random() - 0.5);
    const moved = <T>(x: ArrayLike<T>) => perm.map((p) => x[p]);
    const byAddress = new Int32Array(N);
    for (const [i, p] of perm.entries()) byAddress[p] = i;
    const shuffled: Snapshot = {
      ...snapshot,
      addresses: moved(addresses),
      byAddress,
      columns: { liquidityUsd: Float64Array.from(moved(liquidity)), volume24hUsd: Float64Array.from(moved(volume)) },
      order: new Map(),
    };
    const keys = nameIndex(shuffled, moved(symbols), moved(names));
    for (const [q, byAddr] of [
      ["a", false],
      ["ab", false],
      ["0x", true],
    ] as const) {
      const all = expected(q, byAddr);
      for (const offset of [0, 150, all.length - 30])
        expect(findTokens(shuffled, keys, q, byAddr, { offset, limit: 60 }).matches).toEqual(
          all.slice(offset, offset + 60),
        );
    }
  });
});
