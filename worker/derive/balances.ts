import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type InTx, insertBatched, PREPARED, pipelined, type Tx } from "@/db/bulk";
import { toQuery } from "@/db/client";
import { balances, holderCountHistory, pools, tokens } from "@/db/schema";
import { BURN_ADDRESSES, isRealHolder } from "@/lib/tokens/holders";
import { isoTime } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { TransferRow } from "../indexer/transform";

const ZERO = BURN_ADDRESSES[0];

const key = (token: string, holder: string) => `${token}:${holder}`;
/** A holder's balance of a token after a fold, and the block of its last move. */
type Balance = { token: string; holder: string; amount: bigint; block: number };
const balanceRow = (b: Balance) => ({
  tokenAddress: b.token,
  holder: b.holder,
  amount: b.amount,
  updatedBlock: b.block,
});
const bal = alias(balances, "bal");
const hist = alias(holderCountHistory, "hist");

/**
 * Balances as stored before a range, of the (token, holder) pairs asked for, each pair read once:
 * reconciliation (reconcile.ts, before the range's transaction) and the fold below (in it) both
 * start from them. Nothing writes balances between the two: the worker is their only writer. A
 * bulk load's are `held` in the process (HeldBalances).
 */
export class StoredBalances {
  /** By pair: the stored amount, or null where the pair has no row (never held). */
  private readonly amounts = new Map<string, bigint | null>();

  constructor(readonly held: HeldBalances | null = null) {}

  /** Reads the pairs not read yet. */
  async load(db: Tx, pairs: [token: string, holder: string][]) {
    const missing = pairs.filter(([token, holder]) => !this.amounts.has(key(token, holder)));
    if (missing.length === 0) return;
    for (const [token, holder] of missing)
      this.amounts.set(key(token, holder), this.held?.amount(token, holder) ?? null);
    if (this.held) return;
    const q = toQuery(sql`select ${bal.tokenAddress} as "tokenAddress", ${bal.holder} as holder, ${bal.amount} as amount
      from ${balances} bal join unnest(${sql.param(missing.map(([token]) => token))}::text[],
                                     ${sql.param(missing.map(([, holder]) => holder))}::text[]) k(token, holder)
        on ${bal.tokenAddress} = k.token and ${bal.holder} = k.holder`);
    const rows = await db.unsafe<Pick<typeof balances.$inferSelect, "tokenAddress" | "holder" | "amount">[]>(
      q.text,
      q.params,
      PREPARED,
    );
    for (const r of rows) this.amounts.set(key(r.tokenAddress, r.holder), BigInt(r.amount));
  }

  /** Each token's `n` largest holders (a positive balance), largest first, then by address. */
  async largest(db: Tx, tokens: string[], n: number): Promise<{ token: string; holder: string }[]> {
    if (this.held) return tokens.flatMap((token) => this.held!.largest(token, n));
    const q = toQuery(sql`select "token", holder from (
        select ${bal.tokenAddress} as "token", ${bal.holder} as holder,
               row_number() over (partition by ${bal.tokenAddress} order by ${bal.amount} desc, ${bal.holder}) as n
          from ${balances} bal where ${bal.tokenAddress} = any(${sql.param(tokens)}::text[]) and ${bal.amount} > 0) x
       where n <= ${sql.raw(String(n))}`);
    return db.unsafe<{ token: string; holder: string }[]>(q.text, q.params, PREPARED);
  }

  /** A loaded pair's stored amount; null when it has no row. */
  get(token: string, holder: string): bigint | null {
    const amount = this.amounts.get(key(token, holder));
    if (amount === undefined) throw new Error(`balance of ${holder} in ${token} was not loaded`);
    return amount;
  }
}

/**
 * Each token's newest holder count (none before its first): held, or one backward probe of the key
 * each (a distinct on over the tokens' whole histories reads every count a busy token ever had).
 */
async function newestCounts(tx: Tx, tokens: string[], held: HeldBalances | null): Promise<[string, number][]> {
  if (held)
    return tokens.flatMap((t) => {
      const count = held.count(t);
      return count === undefined ? [] : [[t, count]];
    });
  const newest = toQuery(sql`select k.token as "tokenAddress", last.count as "holderCount"
      from unnest(${sql.param(tokens)}::text[]) k(token)
     cross join lateral (select ${hist.holderCount} as count from ${holderCountHistory} hist
                          where ${hist.tokenAddress} = k.token order by ${hist.at} desc limit 1) last`);
  const rows = await tx.unsafe<Pick<typeof holderCountHistory.$inferSelect, "tokenAddress" | "holderCount">[]>(
    newest.text,
    newest.params,
    PREPARED,
  );
  return rows.map((r) => [r.tokenAddress, r.holderCount]);
}

/**
 * Applies transfers, in chain order, to balances (tokens and LP tokens), supplies (mints add, burns subtract) and the
 * holder counts of tokens (a row for each block that changed one). `from` is the state before: the stored one when
 * appending a range, zero when rebuilding a token from all its transfers after a reorg; both run this same fold.
 * Reconciliation rows (kind "reconcile", reconcile.ts) are part of the fold, so a rebuild after a reorg keeps them.
 */
export async function applyTransfers(
  tx: InTx,
  state: ChainState,
  transfers: TransferRow[],
  from: StoredBalances | "zero",
) {
  if (transfers.length === 0) return;
  const changed = new Map<string, Balance>();
  for (const t of transfers) {
    for (const holder of [t.from, t.to]) {
      if (holder !== ZERO) changed.set(key(t.token, holder), { token: t.token, holder, amount: 0n, block: t.block });
    }
  }
  const listed = [...new Set(transfers.filter((t) => state.tokens.has(t.token)).map((t) => t.token))];
  const holderCounts = new Map<string, number>();
  if (from !== "zero") {
    const pairs = [...changed.values()];
    // Both reads are sent before this returns to its caller (deriveRange sends other steps' statements after them).
    const [, counts] = await Promise.all([
      from.load(
        tx,
        pairs.map((p) => [p.token, p.holder]),
      ),
      newestCounts(tx, listed, from.held),
    ]);
    for (const p of pairs) p.amount = from.get(p.token, p.holder) ?? 0n;
    for (const [token, count] of counts) holderCounts.set(token, count);
  }

  const supply = new Map<string, bigint>();
  const counted = new Map<string, HolderCount>();
  const move = (t: TransferRow, holder: string, delta: bigint) => {
    const b = changed.get(key(t.token, holder))!;
    const before = b.amount;
    b.amount += delta;
    b.block = t.block;
    if (!state.tokens.has(t.token) || !isRealHolder(holder, t.token, state.nonHolders)) return;
    const change = Number(b.amount > 0n) - Number(before > 0n);
    if (change === 0) return;
    const count = (holderCounts.get(t.token) ?? 0) + change;
    holderCounts.set(t.token, count);
    counted.set(`${t.token}:${t.timestamp}`, { token: t.token, at: t.timestamp, count });
  };
  for (const t of transfers) {
    // A reconciliation moves a balance without a mint or burn; its supply row (zero to zero) moves the supply by a
    // signed amount.
    if (t.kind === "reconcile") {
      if (t.from === ZERO && t.to === ZERO) supply.set(t.token, (supply.get(t.token) ?? 0n) + t.amount);
    } else if (t.from === ZERO) supply.set(t.token, (supply.get(t.token) ?? 0n) + t.amount);
    else if (t.to === ZERO) supply.set(t.token, (supply.get(t.token) ?? 0n) - t.amount);
    if (t.from !== ZERO) move(t, t.from, -t.amount);
    if (t.to !== ZERO) move(t, t.to, t.amount);
  }

  const held = from === "zero" ? null : from.held;
  held?.stage({ balances: [...changed.values()], counts: [...counted.values()] });
  await pipelined(tx, async (w) => {
    if (!held) {
      await w.insert(balances, [...changed.values()].map(balanceRow), {
        onConflict: { target: ["tokenAddress", "holder"], action: "update" },
      });
      await w.insert(holderCountHistory, [...counted.values()].map(countRow), {
        onConflict: { target: ["tokenAddress", "at"], action: "update" },
      });
    }
    const deltas = [...supply].filter(([, d]) => d !== 0n);
    const add = (stored: string, given: string) => `${stored} + ${given}`;
    w.update(
      tokens,
      deltas.map(([address, totalSupply]) => ({ address, totalSupply })),
      { match: ["address"], set: { totalSupply: add } },
    );
    w.update(
      pools,
      deltas.map(([address, lpTotalSupply]) => ({ address, lpTotalSupply })),
      { match: ["address"], set: { lpTotalSupply: add } },
    );
  });
}

/** A token's holder count from a block's time (Unix seconds) on. */
type HolderCount = { token: string; at: number; count: number };
const countRow = (h: HolderCount) => ({ tokenAddress: h.token, at: isoTime(h.at), holderCount: h.count });
/** What a range's fold leaves: its changed balances, and the holder counts it changed, in chain order. */
type Folded = { balances: Balance[]; counts: HolderCount[] };
/** Each token's holder counts, in time order. */
type CountHistory = Map<string, { at: number[]; count: number[] }>;

/**
 * A bulk load's balances and holder counts (held.ts), as their rows would store them, written once
 * when the backfill ends: a range reads back only its holders' balances, their tokens' largest
 * holders and each token's newest count. Millions of balances are held, so none is an object of
 * its own, which every full collection would mark: each is a slot of two arrays (its amount, the
 * block of its last move), and a holder's address is one string however many tokens it holds.
 */
export class HeldBalances {
  /** Each token's holders, by the slot of their balance. */
  private readonly byToken = new Map<string, Map<string, number>>();
  private readonly amounts: bigint[] = [];
  /** Numbers only, so its elements are stored unboxed. */
  private readonly blocks: number[] = [];
  private readonly addresses = new Map<string, string>();
  /** Each token's holder count history, in time order (what holder_count_history would hold). */
  private readonly history: CountHistory = new Map();
  private staged: Folded | null = null;

  amount(token: string, holder: string): bigint | null {
    const slot = this.byToken.get(token)?.get(holder);
    return slot === undefined ? null : this.amounts[slot];
  }

  /** The token's newest holder count; undefined before its first. */
  count(token: string): number | undefined {
    return this.history.get(token)?.count.at(-1);
  }

  /** The token's `n` largest holders, in the order StoredBalances.largest reads them from the table. */
  largest(token: string, n: number): { token: string; holder: string }[] {
    const held: [string, bigint][] = [];
    for (const [holder, slot] of this.byToken.get(token) ?? []) {
      if (this.amounts[slot] > 0n) held.push([holder, this.amounts[slot]]);
    }
    held.sort(([a, x], [b, y]) => (x > y ? -1 : x < y ? 1 : a < b ? -1 : a > b ? 1 : 0));
    return held.slice(0, n).map(([holder]) => ({ token, holder }));
  }

  stage(folded: Folded) {
    this.staged = folded;
  }

  keep() {
    if (!this.staged) return;
    for (const b of this.staged.balances) {
      let holders = this.byToken.get(b.token);
      if (!holders) this.byToken.set(b.token, (holders = new Map()));
      let slot = holders.get(b.holder);
      if (slot === undefined) {
        slot = this.amounts.length;
        holders.set(this.address(b.holder), slot);
      }
      this.amounts[slot] = b.amount;
      this.blocks[slot] = b.block;
    }
    for (const h of this.staged.counts) {
      let history = this.history.get(h.token);
      if (!history) this.history.set(h.token, (history = { at: [], count: [] }));
      // A block of a range may share its time with the last block of the range before: the later count stands.
      const last = history.at.length - 1;
      if (history.at[last] === h.at) history.count[last] = h.count;
      else history.at.push(h.at), history.count.push(h.count);
    }
    this.staged = null;
  }

  drop() {
    this.staged = null;
  }

  /** The one string held for an address. */
  private address(address: string): string {
    const held = this.addresses.get(address);
    if (held !== undefined) return held;
    this.addresses.set(address, address);
    return address;
  }

  /**
   * Inserts every held balance and holder count (the tables hold none of them yet), in their keys'
   * order: each row then lands at the right edge of its primary key's index, where one in the
   * order they were first held lands anywhere in it (a COPY of the 25,000-token load's balances
   * took 1.4 s sorted, 2.4 s not).
   */
  async write(tx: InTx) {
    const { byToken, amounts, blocks, history } = this;
    const tokens = [...byToken.keys()].sort();
    const all = function* () {
      for (const token of tokens) {
        const holders = byToken.get(token)!;
        for (const holder of [...holders.keys()].sort()) {
          const slot = holders.get(holder)!;
          yield { token, holder, amount: amounts[slot], block: blocks[slot] };
        }
      }
    };
    await insertBatched(tx, balances, all(), balanceRow);
    const counts = function* () {
      for (const token of [...history.keys()].sort()) {
        const h = history.get(token)!;
        for (let i = 0; i < h.at.length; i++) yield { token, at: h.at[i], count: h.count[i] };
      }
    };
    await insertBatched(tx, holderCountHistory, counts(), countRow);
  }
}
