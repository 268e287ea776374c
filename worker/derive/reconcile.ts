import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { encodeFunctionData, erc20Abi } from "viem";
import { PREPARED, updateRows } from "@/db/bulk";
import { toQuery } from "@/db/client";
import { tokens as tokensTable } from "@/db/schema";
import { decodeUintResult } from "@/lib/chain-text";
import { EntityError } from "../indexer/quarantine";
import type { RangeData } from "../indexer/range";
import type { Tx } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { RangeRows, TransferRow } from "../indexer/transform";
import type { StoredBalances } from "./balances";

/**
 * Balances that Transfer events alone get wrong, reconciled with the chain.
 *
 * Balances are folded from Transfer events. A fee-on-transfer token whose event names the gross
 * amount, a rebasing token (balances move with no event), or a token that simply lies, makes the
 * fold disagree with the contract's own state. Calling balanceOf for every holder of every range
 * would double the cost of a backfill, so the chain is asked only where the events prove
 * themselves wrong, which costs nothing to notice:
 * - a holder sends more than the events gave it (a negative balance), or a balance or the supply
 *   leaves 0..2^256-1;
 * - a pair's Sync reports a reserve other than the pair's balance folded from Transfers (a V2 pair
 *   syncs to its real balance, so an honest token always agrees at that log);
 * - the token was found inconsistent before (tokens.anomalies has balance_mismatch): every
 *   range that moves it is checked again.
 * A token that existed before the indexer found it (supply_base > 0, found through a pair) has
 * holders whose opening balances no event showed: each holder is asked once, when first seen.
 *
 * A check calls balanceOf of the holders the range touched, of the token's pairs and of its 100
 * largest holders, and totalSupply(), at the range's last block (the block's hash is checked
 * after the calls, so answers from a branch that a reorg replaced are never used). The answers
 * are trusted only within the invariants: each balance at most the supply, their sum at most
 * the supply. Then each difference is written as a "reconcile" row of token_transfers at the end
 * of the block (a balance move with no mint or burn; a zero-to-zero row moves the supply by a
 * signed amount), which the balance and position folds apply like any transfer, after a reorg
 * too; and the token is marked balance_mismatch (opening balances do not mark it). When the
 * events are inconsistent and the answers break the invariants (or revert), nothing about the
 * token can be believed: it is quarantined. A token whose events are consistent is never asked,
 * so a lying balanceOf alone changes nothing; a balanceOf that lies within the invariants when
 * it is asked cannot be told from the truth (nothing on chain tells them apart), but it can never
 * make a balance negative or the balances exceed the supply.
 *
 * The plan (planReconcile) reads only the database, before the range's transaction; the indexer asks
 * the chain its calls (worker/indexer/calls-at-block.ts) outside that transaction, once per range
 * however often the range is written again; applyReconcile weighs the answers without I/O.
 *
 * The calls read state at the range's last block, which a backfill needs from an archive node
 * (as discovery's name() and decimals() at the creation block do): a node without that state
 * answers with an error, and a token that needed the answer is quarantined with the node's words.
 */

/** Reconciliation rows number after every real log of their block (log indexes stay below 100,000). */
export const RECONCILE_LOG_INDEX = 1_000_000;
export const MAX_UINT256 = 2n ** 256n - 1n;
const TOP_HOLDERS = 100;
const ZERO = "0x0000000000000000000000000000000000000000";
const ZERO_HASH = `0x${"0".repeat(64)}`;
const TOTAL_SUPPLY = encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" });
const balanceOfCall = (holder: string) =>
  encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [holder as `0x${string}`] });

const key = (token: string, holder: string) => `${token}:${holder}`;
/** The tables as the reads below name them. */
const tk = alias(tokensTable, "tk");

type Check = { token: string; reason: string | null; holders: Set<string>; opening: Set<string>; supply: boolean };

/** An eth_call to make at the range's last block. */
export type BalanceCall = { to: string; data: string };

/** What reconciling a range asks the chain, with the fold of its events that the answers are weighed against. */
export type ReconcilePlan = {
  /** The range's tokens with transfers or Syncs, and the holders each touched (pairs included). */
  touched: Map<string, Set<string>>;
  before: StoredBalances;
  /** Balances (by `key`) and supplies after the range's events. */
  balance: Map<string, bigint>;
  supply: Map<string, bigint>;
  /** The first proof that a token's events are wrong. */
  wrong: Map<string, string>;
  checks: Check[];
  /** Each check's totalSupply() when it asks for it, then its holders' balanceOf, in order. */
  calls: BalanceCall[];
};

/**
 * Folds the range's transfers and Syncs over the stored balances and decides what to ask the chain,
 * as above. Reads the database only (the state before the range); null when the range moves no token.
 */
export async function planReconcile(
  db: Tx,
  state: ChainState,
  data: RangeData,
  rows: RangeRows,
  before: StoredBalances,
): Promise<ReconcilePlan | null> {
  const transfers = rows.transfers.filter((t) => state.tokens.has(t.token));
  // A V2 pair syncs to its real balance; a V3 pool's balances are folded by the indexer itself, so only
  // V2 Syncs prove anything.
  const syncs = rows.reserves.flatMap((r) => {
    if (r.v3) return [];
    const p = state.pools.get(r.pool)!;
    return [
      ...(state.tokens.has(p.token0)
        ? [{ token: p.token0, pool: p.address, reserve: r.reserve0, block: r.block, logIndex: r.logIndex }]
        : []),
      ...(state.tokens.has(p.token1)
        ? [{ token: p.token1, pool: p.address, reserve: r.reserve1, block: r.block, logIndex: r.logIndex }]
        : []),
    ];
  });
  if (transfers.length === 0 && syncs.length === 0) return null;

  const touched = new Map<string, Set<string>>();
  const touch = (token: string, holder: string) => {
    if (holder === ZERO) return;
    const set = touched.get(token) ?? new Set<string>();
    set.add(holder);
    touched.set(token, set);
  };
  for (const t of transfers) touch(t.token, t.from), touch(t.token, t.to);
  for (const s of syncs) touch(s.token, s.pool);
  const tokens = [...touched.keys()];

  // The state before the range: stored balances (null: no row, never seen) and supplies, read at once
  // (a live block waits for these reads).
  const supplies = toQuery(sql`select ${tk.address} as address, ${tk.totalSupply} as "totalSupply",
      ${tk.supplyBase} as "supplyBase" from ${tokensTable} tk where ${tk.address} = any(${sql.param(tokens)}::text[])`);
  const [, supplyRows] = await Promise.all([
    before.load(
      db,
      [...touched].flatMap(([t, hs]) => [...hs].map((h) => [t, h] as [string, string])),
    ),
    db.unsafe<Pick<typeof tokensTable.$inferSelect, "address" | "totalSupply" | "supplyBase">[]>(
      supplies.text,
      supplies.params,
      PREPARED,
    ),
  ]);
  const unseen = (token: string, holder: string) => before.get(token, holder) === null;
  const supply = new Map<string, bigint>();
  const preexisting = new Set<string>();
  for (const r of supplyRows) {
    supply.set(r.address, BigInt(r.totalSupply));
    if (BigInt(r.supplyBase) > 0n) preexisting.add(r.address);
  }
  for (const t of data.tokens) {
    supply.set(t.address, t.supplyBase);
    if (t.supplyBase > 0n) preexisting.add(t.address);
  }

  // The fold, in chain order with the pairs' Syncs, noting the first proof that the events are wrong.
  const balance = new Map<string, bigint>();
  const balanceOf = (token: string, holder: string) => folded({ balance, before }, token, holder);
  const wrong = new Map<string, string>();
  const suspect = (token: string, reason: string) => wrong.has(token) || wrong.set(token, reason);
  const steps = [
    ...transfers.map((t) => ({ block: t.block, logIndex: t.logIndex, t })),
    ...syncs.map((s) => ({ block: s.block, logIndex: s.logIndex, s })),
  ].sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  for (const step of steps) {
    if ("s" in step) {
      const { token, pool, reserve, block } = step.s;
      const folded = balanceOf(token, pool);
      if (folded !== reserve)
        suspect(token, `pair ${pool} synced to ${reserve} at block ${block}, its Transfer events give it ${folded}`);
      continue;
    }
    const t = step.t;
    if (t.kind === "reconcile") continue;
    if (t.from === ZERO) supply.set(t.token, (supply.get(t.token) ?? 0n) + t.amount);
    else if (t.to === ZERO) supply.set(t.token, (supply.get(t.token) ?? 0n) - t.amount);
    if (t.from !== ZERO) {
      const b = balanceOf(t.token, t.from) - t.amount;
      balance.set(key(t.token, t.from), b);
      // A holder of a token older than its discovery may spend what it held before: its opening balance, asked below.
      const opening = preexisting.has(t.token) && unseen(t.token, t.from);
      if (b < 0n && !opening)
        suspect(t.token, `${t.from} sends ${t.amount} at block ${t.block}, more than its Transfer events gave it`);
    }
    if (t.to !== ZERO) {
      const b = balanceOf(t.token, t.to) + t.amount;
      balance.set(key(t.token, t.to), b);
      if (b > MAX_UINT256) suspect(t.token, `${t.to}'s balance passes 2^256-1 at block ${t.block}`);
    }
    const s = supply.get(t.token)!;
    if (s < 0n || s > MAX_UINT256) suspect(t.token, `the supply leaves 0..2^256-1 at block ${t.block}`);
  }

  // What to ask the chain.
  const checks: Check[] = [];
  const wide: string[] = [];
  for (const token of tokens) {
    const reason = wrong.get(token) ?? (state.mismatched.has(token) ? "marked balance_mismatch before" : null);
    const holders = new Set<string>();
    const opening = new Set<string>();
    if (preexisting.has(token)) {
      for (const h of touched.get(token)!) if (unseen(token, h)) holders.add(h), opening.add(h);
    }
    if (reason) {
      for (const h of touched.get(token)!) holders.add(h);
      for (const p of state.poolsByToken.get(token) ?? []) holders.add(p.address);
      wide.push(token);
    }
    if (holders.size > 0) checks.push({ token, reason, holders, opening, supply: reason !== null });
  }
  if (wide.length > 0) {
    const byToken = new Map(checks.map((c) => [c.token, c]));
    for (const r of await before.largest(db, wide, TOP_HOLDERS)) byToken.get(r.token)!.holders.add(r.holder);
  }
  await before.load(
    db,
    checks.flatMap((c) =>
      [...c.holders].filter((h) => !balance.has(key(c.token, h))).map((h) => [c.token, h] as [string, string]),
    ),
  );
  const calls = checks.flatMap((c) => [
    ...(c.supply ? [{ to: c.token, data: TOTAL_SUPPLY }] : []),
    ...[...c.holders].map((h) => ({ to: c.token, data: balanceOfCall(h) })),
  ]);
  return { touched, before, balance, supply, wrong, checks, calls };
}

/** A holder's balance in the fold: what the range's events left, else the stored one, else 0. */
const folded = (plan: Pick<ReconcilePlan, "balance" | "before">, token: string, holder: string) =>
  plan.balance.get(key(token, holder)) ?? plan.before.get(token, holder) ?? 0n;

/**
 * Weighs the chain's answers to `plan.calls` (a value or an Error each, in order) as above, without
 * I/O: appends the reconciliation rows to `rows.transfers` and returns the tokens to mark
 * balance_mismatch. Throws EntityError for tokens to quarantine.
 */
export function applyReconcile(
  plan: ReconcilePlan,
  answers: unknown[],
  state: ChainState,
  data: RangeData,
  rows: RangeRows,
): string[] {
  const { touched, balance, supply, wrong, checks } = plan;
  const balanceOf = (token: string, holder: string) => folded(plan, token, holder);
  const last = data.blocks.get(data.to)!;
  const marked: string[] = [];
  const adjustments: TransferRow[] = [];
  const untrusted = new Map<string, string>();
  const row = (token: string, from: string, to: string, amount: bigint): TransferRow => ({
    block: data.to,
    logIndex: RECONCILE_LOG_INDEX + adjustments.length,
    token,
    from,
    to,
    amount,
    txHash: ZERO_HASH,
    txFrom: ZERO,
    kind: "reconcile",
    amountUsd: 0,
    timestamp: last.timestamp,
  });
  let at = 0;
  for (const c of checks) {
    const mine = answers.slice(at, (at += (c.supply ? 1 : 0) + c.holders.size));
    const value = (answer: unknown) => (typeof answer === "string" ? decodeUintResult(answer) : null);
    const chainSupply = c.supply ? value(mine[0]) : null;
    const chain = [...c.holders].map((h, i) => [h, value(mine[i + (c.supply ? 1 : 0)])] as const);
    const eventSupply = supply.get(c.token) ?? 0n;
    const bound = c.supply ? chainSupply : eventSupply >= 0n && eventSupply <= MAX_UINT256 ? eventSupply : null;
    const sum = chain.reduce((s, [, v]) => s + (v ?? 0n), 0n);
    if (bound === null || chain.some(([, v]) => v === null) || sum > bound) {
      // The node's own words when a call failed: a revert, or a node without the block's state (an
      // archive node is needed to backfill).
      const failed = mine.find((a) => a instanceof Error) as Error | undefined;
      const said = failed ? `: ${failed.message.slice(0, 120)}` : "";
      untrusted.set(
        c.token,
        c.supply && chainSupply === null
          ? `totalSupply() gives no answer${said}`
          : bound === null
            ? "its supply is out of range"
            : chain.some(([, v]) => v === null)
              ? `balanceOf gives no answer${said}`
              : `its balanceOf answers sum to ${sum}, above the supply ${bound}`,
      );
      continue;
    }
    let mismatch = false;
    for (const [h, v] of chain) {
      const delta = v! - balanceOf(c.token, h);
      if (delta === 0n) continue;
      if (!c.opening.has(h)) mismatch = true;
      balance.set(key(c.token, h), v!);
      adjustments.push(delta > 0n ? row(c.token, ZERO, h, delta) : row(c.token, h, ZERO, -delta));
    }
    if (c.supply && chainSupply !== eventSupply) {
      mismatch = true;
      supply.set(c.token, chainSupply!);
      adjustments.push(row(c.token, ZERO, ZERO, chainSupply! - eventSupply));
    }
    // Marked in every attempt at writing the range (an attempt that rolled back marked nothing).
    if (mismatch) marked.push(c.token);
  }

  // What is written must hold: no balance or supply outside 0..2^256-1, and no token whose events
  // proved wrong left unreconciled. Otherwise nothing about the token can be believed.
  const quarantine: { kind: "token"; address: string; reason: string }[] = [];
  for (const token of touched.keys()) {
    const negative = [...touched.get(token)!].find(
      (h) => balanceOf(token, h) < 0n || balanceOf(token, h) > MAX_UINT256,
    );
    const s = supply.get(token) ?? 0n;
    const invalid = negative
      ? `${negative}'s balance would be ${balanceOf(token, negative)}`
      : s < 0n || s > MAX_UINT256
        ? `the supply would be ${s}`
        : null;
    if (!invalid && !(wrong.has(token) && untrusted.has(token))) continue;
    const events = wrong.has(token)
      ? `its Transfer events are inconsistent (${wrong.get(token)})`
      : "its Transfer events cannot be reconciled";
    const why = untrusted.get(token) ?? "the chain was not asked";
    quarantine.push({
      kind: "token",
      address: token,
      reason: `${events}${invalid ? `: ${invalid}` : ""}, and its own answers cannot be trusted (${why})`,
    });
  }
  if (quarantine.length > 0) throw new EntityError(quarantine);
  for (const token of marked) state.mismatched.add(token);
  if (adjustments.length > 0) {
    rows.transfers.push(...adjustments);
    // The rows' block is stored: a rollback rebuilds balances from token_transfers joined with blocks.
    last.keep = true;
  }
  return marked;
}

/**
 * tokens.anomalies: the text anomalies of the range's new tokens (after they are written) and
 * balance_mismatch for the tokens reconciliation marked.
 */
export async function markTokens(tx: Tx, data: RangeData, mismatched: string[]) {
  const marks = new Map<string, Set<string>>();
  for (const t of data.tokens) if (t.anomalies.length > 0) marks.set(t.address, new Set(t.anomalies));
  for (const t of mismatched) marks.set(t, (marks.get(t) ?? new Set()).add("balance_mismatch"));
  if (marks.size === 0) return;
  await updateRows(
    tx,
    tokensTable,
    [...marks].map(([address, m]) => ({ address, anomalies: [...m] })),
    {
      match: ["address"],
      set: { anomalies: (stored, given) => `array(select distinct unnest(${stored} || ${given}) order by 1)` },
    },
  );
}
