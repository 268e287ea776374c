import { sql } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";
import { tokens } from "@/db/schema";
import { databaseCache } from "@/lib/cache";
import { breathe, endsStep } from "./breathe";
import { carriedOrder, firstReached, sortedPositions } from "./sorted-positions";
import { addressCompare, type OrderBy, type Snapshot, snapshotFor, walkedSnapshot } from "./token-list-index";

/** One key per token position (lowercased), and the positions sorted by it: a prefix is a range. */
type Keys = { values: string[]; sorted: Int32Array };

/**
 * The search keys of a snapshot's tokens, `size` positions of its lineage: a later snapshot of
 * the lineage reuses them and adds its new tokens'.
 */
export type NameIndex = { lineage: object; size: number; symbol: Keys; name: Keys; address: Keys };

export type TokenMatch = { address: string; matched: "symbol" | "name" | "address" };

/** Where a token stands in search order: exact match (0) or not (1), liquidity and volume (0 without), address. */
export type TokenRank = { group: 0 | 1; liquidity: number; volume: number; address: string };

/** Above this many matches a page is a walk of the whole rank order rather than a sort of the matches. */
const SORT_MATCHES_MAX = 5_000;

const keyCompare = (values: string[]) => (a: number, b: number) =>
  values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : a - b;

const keysOf = (values: string[]): Keys => ({
  values,
  sorted: Int32Array.from(values, (_, i) => i).sort(keyCompare(values)),
});

/** `k` carried to `values`: k's values followed by new positions', merged into its order (no sort of every key). */
function carriedKeys(k: Keys, values: string[]): Keys {
  const added = Int32Array.from({ length: values.length - k.values.length }, (_, i) => k.values.length + i);
  return { values, sorted: carriedOrder(k.sorted, values.length, added, keyCompare(values)) };
}

/** The sorted range [from, to) of keys starting with `q`: they are contiguous in code-unit order. */
function prefixRange(k: Keys, q: string): [number, number] {
  const first = (test: (v: string) => boolean, lo: number) =>
    firstReached(lo, k.sorted.length, (i) => test(k.values[k.sorted[i]]));
  const from = first((v) => v >= q, 0);
  return [from, first((v) => !v.startsWith(q), from)];
}

type Tokens = Pick<Snapshot, "addresses" | "byAddress" | "lineage">;

/** The address keys of `s`: its addresses, whose address order it keeps. */
const addressKeys = (s: Tokens): Keys => ({ values: s.addresses, sorted: s.byAddress });

/** The search keys of the tokens of `s` by position: their lowercased symbols and names, and addresses. */
export const nameIndex = (s: Tokens, symbols: string[], names: string[]): NameIndex => ({
  lineage: s.lineage,
  size: s.addresses.length,
  symbol: keysOf(symbols),
  name: keysOf(names),
  address: addressKeys(s),
});

/**
 * Reads the lowercased symbols and names of the tokens at `positions` of `addresses` (in address
 * order) into those positions of `symbols` and `names` ("" for a token the table does not hold).
 * `every`: the positions are every token's, and the table is scanned (sending them all as one
 * parameter cost more than the scan). The rows come in address order too, so one walk aligns
 * them (no map of every token), breathing between steps (breathe.ts).
 */
async function readKeys(
  db: Db,
  addresses: string[],
  positions: ArrayLike<number>,
  every: boolean,
  { symbols, names }: { symbols: string[]; names: string[] },
): Promise<void> {
  const want = Array.from(positions, (p) => addresses[p]);
  const which = every ? sql`true` : sql`${tokens.address} = any(${sql.param(want)})`;
  const rows = want.length
    ? await queryPrepared<Pick<typeof tokens.$inferSelect, "address" | "symbol" | "name">>(
        db,
        sql`select ${tokens.address}, ${tokens.symbol}, ${tokens.name} from ${tokens} where ${which}
             order by ${tokens.address} collate "C"`,
      )
    : [];
  for (let i = 0, k = 0; i < want.length; i++) {
    if (endsStep(i, i + 1)) await breathe();
    while (k < rows.length && rows[k].address < want[i]) k++;
    const held = k < rows.length && rows[k].address === want[i];
    symbols[positions[i]] = held ? rows[k].symbol.toLowerCase() : "";
    names[positions[i]] = held ? rows[k].name.toLowerCase() : "";
  }
}

/** The latest name index built, whose symbols and names the next one reuses. */
const lastNamesOf = databaseCache<"", NameIndex>({ name: "searchNames", max: 1 });
const namesOfSnapshot = new WeakMap<Snapshot, Promise<NameIndex>>();

/** Positions `from` and on of `s`, in address order. */
const positionsByAddress = (s: Snapshot, from: number) =>
  Int32Array.from({ length: s.addresses.length - from }, (_, i) => from + i).sort(addressCompare(s.addresses));

/**
 * The name index of a snapshot, built on its first search: symbols and names come from the
 * previous index where it has them (a token's never change), so only the other tokens are read.
 * In the previous index's lineage the new tokens are the positions past it, merged into its
 * sorted keys. Built in steps (breathe.ts): a first index sorts every token's keys.
 */
function namesOf(db: Db, s: Snapshot): Promise<NameIndex> {
  let names = namesOfSnapshot.get(s);
  if (!names) {
    names = (async () => {
      const prev = lastNamesOf(db).get("");
      const n = s.addresses.length;
      if (prev?.lineage === s.lineage && prev.size === n) return prev;
      let names: NameIndex;
      if (prev?.lineage === s.lineage && prev.size < n) {
        const grown = (k: Keys) => k.values.concat(new Array<string>(n - prev.size).fill(""));
        const keys = { symbols: grown(prev.symbol), names: grown(prev.name) };
        await readKeys(db, s.addresses, positionsByAddress(s, prev.size), false, keys);
        const symbol = carriedKeys(prev.symbol, keys.symbols);
        await breathe();
        const name = carriedKeys(prev.name, keys.names);
        names = { lineage: s.lineage, size: n, symbol, name, address: addressKeys(s) };
      } else {
        // s's tokens and prev's, both in address order: prev's keys where it has the token, the others read.
        const keys = { symbols: new Array<string>(n).fill(""), names: new Array<string>(n).fill("") };
        const missing: number[] = [];
        const [had, hadSorted] = [prev?.address.values ?? [], prev?.address.sorted ?? []];
        for (let i = 0, j = 0; i < n; i++) {
          const p = s.byAddress[i];
          while (j < hadSorted.length && had[hadSorted[j]] < s.addresses[p]) j++;
          if (j < hadSorted.length && had[hadSorted[j]] === s.addresses[p]) {
            keys.symbols[p] = prev!.symbol.values[hadSorted[j]];
            keys.names[p] = prev!.name.values[hadSorted[j]];
          } else missing.push(p);
        }
        await readKeys(db, s.addresses, missing, missing.length === n, keys);
        await breathe();
        const symbol = keysOf(keys.symbols);
        await breathe();
        names = { lineage: s.lineage, size: n, symbol, name: keysOf(keys.names), address: addressKeys(s) };
      }
      lastNamesOf(db).set("", names);
      return names;
    })();
    names.catch(() => namesOfSnapshot.delete(s));
    namesOfSnapshot.set(s, names);
  }
  return names;
}

/** Search rank: liquidity, then 24 h volume, highest first (no value counts as 0), then address. */
const rankComparator: OrderBy = (s) => {
  const liquidity = s.columns.liquidityUsd!;
  const volume = s.columns.volume24hUsd!;
  const value = (c: Float64Array, i: number) => (Number.isNaN(c[i]) ? 0 : c[i]);
  const tie = addressCompare(s.addresses);
  return (a: number, b: number) =>
    value(liquidity, b) - value(liquidity, a) || value(volume, b) - value(volume, a) || tie(a, b);
};

/**
 * Every position in search rank, sorted on the first search that needs it (then carried, as the
 * list's orders are): two stable radix sorts, by volume from the address order, then by liquidity.
 */
function rankOrder(s: Snapshot): Int32Array {
  let order = s.order.get(rankComparator);
  if (!order) {
    const valued = (c: Float64Array) => c.map((x) => (Number.isNaN(x) ? 0 : x));
    const byVolume = sortedPositions(valued(s.columns.volume24hUsd!), true, s.byAddress);
    order = sortedPositions(valued(s.columns.liquidityUsd!), true, byVolume);
    s.order.set(rankComparator, order);
  }
  return order;
}

/**
 * Tokens whose symbol or name starts with `q` (lowercase), or whose address does when
 * `byAddress`, from the token list's snapshot of `version`: an exact symbol or address match
 * first, then by rank; one page of them and the exact number. Each key is a binary-searched
 * range of a sorted array, so a search reads no table once the snapshot's index is built.
 */
export async function searchTokenIndex(
  db: Db,
  version: number,
  q: string,
  byAddress: boolean,
  page: TokenSearchPage,
): Promise<{ matches: TokenMatch[]; total: number; last: TokenRank | null; more: boolean; version: number }> {
  // A walk with a cursor keeps the snapshot it started in while it is held, as the token list's walks do.
  const s = (page.walk && walkedSnapshot(db, page.walk.version)) || (await snapshotFor(db, version));
  return { ...findTokens(s, await namesOf(db, s), q, byAddress, page), version: s.version };
}

/** A page of matches: from an offset, or after a walk's last match (`after`, in the snapshot of `walk.version`). */
export type TokenSearchPage = { offset: number; limit: number; after?: TokenRank; walk?: { version: number } };

/** searchTokenIndex on a snapshot and its name index. Synchronous: s.pass is shared with the list's requests. */
export function findTokens(
  s: Snapshot,
  names: NameIndex,
  q: string,
  byAddress: boolean,
  page: TokenSearchPage,
): { matches: TokenMatch[]; total: number; last: TokenRank | null; more: boolean } {
  const symbols = prefixRange(names.symbol, q);
  const addresses = byAddress ? prefixRange(names.address, q) : ([0, 0] as const);
  const spans = [
    [names.symbol, symbols],
    [names.name, prefixRange(names.name, q)],
    [names.address, addresses],
  ] as const;
  const pass = s.pass.fill(0);
  const matches: number[] = [];
  for (const [k, [from, to]] of spans) {
    for (let i = from; i < to; i++) {
      const p = k.sorted[i];
      if (!pass[p]) matches.push(p);
      pass[p] = 1;
    }
  }
  const total = matches.length;
  const compare = rankComparator(s);
  // Keys equal to q sort first in their range; an exact match leads, whatever its rank.
  const exactIn = (k: Keys, [from, to]: readonly [number, number]) => {
    const out: number[] = [];
    for (let i = from; i < to && k.values[k.sorted[i]] === q; i++) out.push(k.sorted[i]);
    return out;
  };
  const exact = [...new Set([...exactIn(names.symbol, symbols), ...exactIn(names.address, addresses)])].sort(compare);
  for (const p of exact) pass[p] = 2;
  const rest =
    total <= SORT_MATCHES_MAX
      ? matches.filter((p) => pass[p] === 1).sort(compare)
      : (function* () {
          for (const p of rankOrder(s)) if (pass[p] === 1) yield p;
        })();
  const liquidity = s.columns.liquidityUsd!;
  const volume = s.columns.volume24hUsd!;
  const rankOf = (p: number): TokenRank => ({
    group: pass[p] === 2 ? 0 : 1,
    liquidity: Number.isNaN(liquidity[p]) ? 0 : liquidity[p],
    volume: Number.isNaN(volume[p]) ? 0 : volume[p],
    address: s.addresses[p],
  });
  const { after } = page;
  const isAfter = (r: TokenRank) =>
    !after ||
    (r.group !== after.group
      ? r.group > after.group
      : r.liquidity !== after.liquidity
        ? r.liquidity < after.liquidity
        : r.volume !== after.volume
          ? r.volume < after.volume
          : r.address > after.address);
  // One match past the page says whether there is a next one.
  const hits: number[] = [];
  let seen = 0;
  for (const list of [exact, rest]) {
    for (const p of list) {
      if (hits.length > page.limit) break;
      if (after ? isAfter(rankOf(p)) : seen++ >= page.offset) hits.push(p);
    }
  }
  const more = hits.length > page.limit;
  if (more) hits.pop();
  const last = hits.at(-1);
  return {
    total,
    /** The page's last match's rank, where a walk continues; whether more matches follow it. */
    last: last === undefined ? null : rankOf(last),
    more,
    matches: hits.map((p) => ({
      address: s.addresses[p],
      matched: names.symbol.values[p].startsWith(q)
        ? "symbol"
        : names.name.values[p].startsWith(q)
          ? "name"
          : "address",
    })),
  };
}
