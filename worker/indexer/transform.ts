import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import { poolPriceUsd, tokenPrice, units, usd, valueUsd } from "../derive/prices";
import type { ChainLog } from "./decode";
import type { BlockData, RangeData } from "./range";
import { type ChainState, type PoolBalances, type PoolState, positionKey } from "./state";
import { actionOf, applyV3 } from "./v3-pool";

/**
 * How a token transfer moved value, from the side of the address that is not the pair:
 * a swap leg (buy: out of the pair, sell: into it), a liquidity leg, a mint, a plain transfer,
 * or a move of a pair's own LP token. "fee": a fee-on-transfer token's cut of a swap or liquidity
 * leg, burnt or kept by the token contract (taken from what the pair pays out, or from the trader
 * who pays the pair in the same transaction). "reconcile" is no log: a correction the indexer
 * wrote where the token's events disagreed with its balanceOf and totalSupply
 * (worker/derive/reconcile.ts).
 */
export type TransferKind = "buy" | "sell" | "lp_add" | "lp_remove" | "mint" | "transfer" | "lp" | "fee" | "reconcile";

export type TransferRow = {
  block: number;
  logIndex: number;
  token: string;
  from: string;
  to: string;
  amount: bigint;
  txHash: string;
  txFrom: string;
  kind: TransferKind;
  /**
   * USD value when it moved: for a swap leg, the swap's own value (the quote side it moved); for a
   * liquidity leg, its tokens at the pool's price then.
   */
  amountUsd: number;
  timestamp: number;
};

/**
 * A liquidity change in a pool of an indexed token, booked to the transaction's sender (who
 * provides the liquidity, as events have it): a V2 Mint or Burn, a V3 Mint, Burn or Collect.
 * `units`: the liquidity it added or removed (V2: LP shares minted to the provider or burnt; V3:
 * the position liquidity of the Mint or Burn; 0 for a Collect). `quoteUsd`: the quote side it
 * moved at that log, paid in by an add, paid out by a V2 Burn or a V3 Collect (a V3 Burn only
 * leaves its amounts owed to the position, until the Collect pays them with the position's fees).
 * Its token side moves as legs (TransferRow). The facts of a wallet's liquidity stakes
 * (worker/derive/positions.ts).
 */
export type LiquidityRow = {
  block: number;
  logIndex: number;
  txHash: string;
  wallet: string;
  pool: string;
  token: string;
  direction: "add" | "remove";
  units: bigint;
  quoteUsd: number;
};

/** A pool's balances (and V3 price state) after one of its logs: what a reorg rollback restores. */
export type ReserveRow = { pool: string; block: number; logIndex: number; v3: boolean } & PoolBalances;

/**
 * A fact of a V3 position in a tracked pool. `owner`: the new owner of a transfer, the recipient
 * of a collect, the owner a locker holds the position for (lock: the owner can never take it out;
 * lock_withdrawable: it can); ticks on the increase that created the position.
 */
export type PositionEventRow = {
  block: number;
  logIndex: number;
  manager: string;
  tokenId: bigint;
  pool: string;
  kind: "increase" | "decrease" | "collect" | "transfer" | "lock" | "lock_withdrawable";
  liquidityDelta: bigint;
  amount0: bigint;
  amount1: bigint;
  owner: string | null;
  tickLower: number | null;
  tickUpper: number | null;
  txHash: string;
  txFrom: string;
};

export type EventType = "swap" | "liquidity_add" | "liquidity_remove" | "transfer";
export type EventRow = {
  id: number;
  type: EventType;
  wallet: string;
  to: string | null;
  token: string;
  pool: string | null;
  tokenAmount: bigint;
  /** The quote token a swap paid or received, or a liquidity change moved, in whole units; null for a transfer. */
  quoteAmount: number | null;
  amountUsd: number;
  /**
   * The token's price by the pricing rule right after a swap or liquidity change (0: unpriced); null for a transfer.
   */
  priceUsd: number | null;
  direction: "buy" | "sell" | null;
  block: number;
  logIndex: number;
  txHash: string;
  timestamp: number;
};

/** A fee-on-transfer token's fee recipient (an ordinary address) that a range's swaps showed: tokens.fee_sinks. */
export type FeeSinkRow = { token: string; sink: string };

/** The rows a range adds, in chain order. */
export type RangeRows = {
  transfers: TransferRow[];
  reserves: ReserveRow[];
  events: EventRow[];
  positionEvents: PositionEventRow[];
  liquidity: LiquidityRow[];
  feeSinks: FeeSinkRow[];
};

/**
 * events.id of a block never rolled back: the chain position, monotonic in chain order. A block
 * indexed again after a reorg numbers its events after its tombstones (write.ts
 * numberAfterTombstones), in the same per-block range, so ids are never reused.
 */
export const eventId = (block: number, logIndex: number) => block * EVENT_ID_BLOCK_FACTOR + logIndex;

const ZERO = "0x0000000000000000000000000000000000000000";
const BURNED = new Set<string>(BURN_ADDRESSES);

/** Where a fee-on-transfer token's cut goes: burnt, or kept by the token contract (to swap or pay out later). */
const isFeeSink = (to: string, token: string) => BURNED.has(to) || to === token;

/** A pool's action in a transaction: what its legs are, the quote side's USD, and the token's USD price in the pool. */
type PoolAction = {
  kind: NonNullable<ReturnType<typeof actionOf>>;
  tokenAmount: bigint;
  tokenSideUsd: number;
  priceUsd: number;
};

/**
 * What a pool log moved, as the pool's event has it: its token and quote amounts (into the pool
 * for adds, out of it for removes), a swap's direction, and the liquidity a Mint or Burn moved.
 */
type Moved = {
  kind: PoolAction["kind"];
  token: bigint;
  quote: bigint;
  direction: "buy" | "sell" | null;
  units: bigint;
};

/**
 * Which action names a transaction's token legs of a pool when it has several: a swap first, then a collect (tokens
 * out), a burn, a mint.
 */
const ACTION_RANK: Record<PoolAction["kind"], number> = { swap: 3, collect: 2, burn: 1, mint: 0 };

/** Which side of a pair is the indexed token and which is its quote; null for quote/quote pairs. */
export function poolSides(state: ChainState, p: PoolState) {
  if (state.tokens.has(p.token0)) return { tokenIs0: true, token: p.token0, quote: p.token1 };
  if (state.tokens.has(p.token1)) return { tokenIs0: false, token: p.token1, quote: p.token0 };
  return null;
}

/**
 * Turns a range's logs into rows, one transaction at a time and in chain order, moving the pool
 * reserves of `state` with each Sync so every value is priced as of its own log. A token movement
 * that is a leg of a swap or liquidity change in the same transaction is kept as a transfer fact
 * (balances need it) but not listed as a transfer event. The trader is the transaction's sender.
 */
export function transformRange(data: RangeData, state: ChainState): RangeRows {
  const out: RangeRows = { transfers: [], reserves: [], events: [], positionEvents: [], liquidity: [], feeSinks: [] };
  let start = 0;
  for (let i = 1; i <= data.logs.length; i++) {
    const prev = data.logs[i - 1];
    const next = data.logs[i];
    if (next && next.block === prev.block && next.txHash === prev.txHash) continue;
    transformTx(data.logs.slice(start, i), data.blocks.get(prev.block)!, state, out);
    start = i;
  }
  return out;
}

function transformTx(logs: ChainLog[], block: BlockData, state: ChainState, out: RangeRows) {
  const txFrom = block.txFrom.get(logs[0].txHash) ?? ZERO;
  const kinds = new Map<string, PoolAction["kind"]>();
  for (const l of logs) {
    const kind = actionOf(l);
    const held = kinds.get(l.address);
    if (kind && state.pools.has(l.address) && (held === undefined || ACTION_RANK[kind] > ACTION_RANK[held]))
      kinds.set(l.address, kind);
  }
  // Who pays a pool of the transaction in its token (a seller, a liquidity provider): a cut of that token taken from
  // them is a fee of that leg.
  const payers = new Map<string, string>();
  for (const l of logs)
    if (l.kind === "transfer" && kinds.has(l.to) && state.tokens.has(l.address))
      payers.set(`${l.address}:${l.from}`, l.to);
  const sinkFees = feesToSinks(logs, kinds, state, out);
  const actions = new Map<string, PoolAction>();
  const legs: { row: TransferRow; pool: string }[] = [];
  /**
   * Per pool, the fees taken from what it paid out: its traders received that much less than the pool's own event says.
   */
  const feesOut = new Map<string, bigint>();
  /** Per V2 pair, the LP shares minted to a provider (the last mint) and burnt since its last Mint or Burn. */
  const shares = new Map<string, { minted: bigint; burnt: bigint }>();
  const positions = new PositionFolder(state, out, txFrom);

  for (const l of logs) {
    const pool = state.pools.get(l.address);
    if (l.kind === "transfer") {
      if (pool) {
        out.transfers.push(transferRow(l, block, txFrom, "lp"));
        const s = shares.get(pool.address) ?? { minted: 0n, burnt: 0n };
        // A Mint's own shares come last: after the protocol fee's, and the first Mint's minimum locked at address zero.
        if (l.from === ZERO && l.to !== ZERO) s.minted = l.value;
        if (l.from === pool.address && l.to === ZERO) s.burnt += l.value;
        shares.set(pool.address, s);
        continue;
      }
      if (!state.tokens.has(l.address)) continue;
      const feePool = isFeeSink(l.to, l.address)
        ? kinds.has(l.from)
          ? l.from
          : (payers.get(`${l.address}:${l.from}`) ?? null)
        : (sinkFees.get(l.logIndex) ?? null);
      const legPool = feePool ?? (kinds.has(l.from) ? l.from : kinds.has(l.to) ? l.to : null);
      const kind =
        l.from === ZERO
          ? "mint"
          : feePool
            ? "fee"
            : legPool
              ? legKind(kinds.get(legPool)!, legPool === l.from)
              : "transfer";
      if (kind === "fee" && feePool === l.from) feesOut.set(l.from, (feesOut.get(l.from) ?? 0n) + l.value);
      const row = transferRow(l, block, txFrom, kind);
      out.transfers.push(row);
      if (legPool) {
        legs.push({ row, pool: legPool });
      } else {
        row.amountUsd = valueUsd(state, l.address, l.value);
        if (kind === "transfer") {
          out.events.push({
            id: eventId(l.block, l.logIndex),
            type: "transfer",
            wallet: l.from,
            to: l.to,
            token: l.address,
            pool: null,
            tokenAmount: l.value,
            quoteAmount: null,
            amountUsd: row.amountUsd,
            priceUsd: null,
            direction: null,
            block: l.block,
            logIndex: l.logIndex,
            txHash: l.txHash,
            timestamp: block.timestamp,
          });
        }
      }
      continue;
    }
    if (state.positionManagers.has(l.address)) {
      positions.add(l);
      continue;
    }
    if (l.kind === "locked") {
      if (state.lockers.has(l.address)) positions.locked(l);
      continue;
    }
    if (!pool) continue;
    // Before the pool's first change in the range: what a transform that does not commit undoes.
    state.moving(pool);
    if (l.kind === "sync") {
      pool.reserve0 = l.reserve0;
      pool.reserve1 = l.reserve1;
      out.reserves.push(reserveRow(pool, l, false));
      continue;
    }
    const s = poolSides(state, pool);
    // Token and quote amounts as the pool's event has them: positive into the pool for adds, out of it for removes. (A
    // fee-on-transfer token's trader gets less than a buy's amount, or pays more than a sell's: its legs say how much.)
    let moved: Moved | null = null;
    if (pool.protocol === "uniswap-v3") {
      const delta = applyV3(pool, l);
      if (!delta) continue;
      if (l.kind === "mintV3") positions.poolMinted(l.owner, pool.address, l.tickLower, l.tickUpper);
      out.reserves.push(reserveRow(pool, l, true));
      const kind = actionOf(l);
      if (!s || !kind) continue;
      const [t, q] = pick(s.tokenIs0, delta.amount0, delta.amount1);
      const units = l.kind === "mintV3" || l.kind === "burnV3" ? l.liquidity : 0n;
      const direction = kind === "swap" ? (t < 0n ? "buy" : "sell") : null;
      moved = { kind, token: abs(t), quote: abs(q), direction, units };
    } else {
      if ((l.kind !== "swap" && l.kind !== "mint" && l.kind !== "burn") || !s) continue;
      if (l.kind === "swap") {
        const [tIn, qIn] = pick(s.tokenIs0, l.amount0In, l.amount1In);
        const [tOut, qOut] = pick(s.tokenIs0, l.amount0Out, l.amount1Out);
        const direction = tOut > tIn ? "buy" : "sell";
        const [token, quote] = direction === "buy" ? [tOut - tIn, qIn - qOut] : [tIn - tOut, qOut - qIn];
        moved = { kind: "swap", direction, token, quote, units: 0n };
      } else {
        const [token, quote] = pick(s.tokenIs0, l.amount0, l.amount1);
        const lp = shares.get(pool.address);
        shares.delete(pool.address);
        const units = (l.kind === "mint" ? lp?.minted : lp?.burnt) ?? 0n;
        moved = { kind: l.kind, token, quote, direction: null, units };
      }
    }
    const tokenSideUsd = valueUsd(state, s.quote, moved.quote < 0n ? -moved.quote : moved.quote);
    actions.set(pool.address, {
      kind: moved.kind,
      tokenAmount: moved.token,
      tokenSideUsd,
      priceUsd: liquidityPriceUsd(state, pool, s.token, moved.token, tokenSideUsd),
    });
    if (moved.kind !== "swap") {
      // A V3 Burn pays nothing yet: its amounts are owed to the position until its Collect.
      const quoteUsd = l.kind === "burnV3" ? 0 : tokenSideUsd;
      const direction = moved.kind === "mint" ? "add" : "remove";
      out.liquidity.push({
        block: l.block,
        logIndex: l.logIndex,
        txHash: l.txHash,
        wallet: txFrom,
        pool: pool.address,
        token: s.token,
        direction,
        units: moved.units,
        quoteUsd,
      });
    }
    // A collect moves what a burn (or fees) left owed: no event of its own.
    if (moved.kind === "collect") continue;
    out.events.push({
      block: l.block,
      logIndex: l.logIndex,
      txHash: l.txHash,
      timestamp: block.timestamp,
      id: eventId(l.block, l.logIndex),
      type: moved.kind === "swap" ? "swap" : moved.kind === "mint" ? "liquidity_add" : "liquidity_remove",
      wallet: txFrom,
      to: null,
      token: s.token,
      pool: pool.address,
      tokenAmount: moved.token,
      quoteAmount: units(moved.quote < 0n ? -moved.quote : moved.quote, state.decimalsOf(s.quote)),
      // A liquidity change moves both sides, each worth the quote side.
      amountUsd: moved.kind === "swap" ? tokenSideUsd : 2 * tokenSideUsd,
      // The pool's reserves are already this log's (a V2 Sync comes before its Swap, Mint or Burn).
      priceUsd: tokenPrice(state, s.token).priceUsd,
      direction: moved.direction,
    });
  }
  positions.finish();
  for (const { row, pool } of legs) {
    const a = actions.get(pool);
    // A liquidity leg is worth its tokens at the pool's price (on V3 its two sides need not be worth the same).
    if (a && (row.kind === "lp_add" || row.kind === "lp_remove")) {
      row.amountUsd = usd(units(row.amount, state.decimalsOf(row.token)) * a.priceUsd);
      continue;
    }
    // What the pool paid out less the fees on it reached its traders, who paid the whole quote side for it; a fee is
    // valued at the pool's own price.
    const reached = row.kind === "fee" ? a?.tokenAmount : a && a.tokenAmount - (feesOut.get(pool) ?? 0n);
    if (a && reached && reached > 0n) row.amountUsd = usd((a.tokenSideUsd * Number(row.amount)) / Number(reached));
  }
}

/**
 * The token's USD price at a liquidity change: a V3 pool's own (its sqrtPriceX96, which adding or
 * removing liquidity does not move); a V2 Mint or Burn moves both sides in the pair's ratio, so
 * its quote side over its token side (the reserves a near-complete Burn leaves are too small to
 * price by).
 */
function liquidityPriceUsd(state: ChainState, pool: PoolState, token: string, amount: bigint, quoteUsd: number) {
  if (pool.protocol === "uniswap-v3") return poolPriceUsd(state, pool) ?? 0;
  return amount > 0n ? usd(quoteUsd / units(amount, state.decimalsOf(token))) : 0;
}

/**
 * Fee-on-transfer cuts paid to an ordinary address (a marketing or treasury wallet), by log index,
 * each with the pool whose leg it split. A token that takes such a cut emits its Transfer logs
 * back to back from the same sender: a run. Out of a pool, the pool's own Swap names the recipient
 * and the amount it sent: a run from the pool that sums to that amount, one of its transfers to
 * that recipient, shows the others to be the token's cut, and their addresses become the token's
 * fee sinks (state.feeSinks, kept in tokens.fee_sinks). Into a pool nothing of the pool's says
 * what the payer sent, so there a transfer beside the payer's leg is a fee only when it goes to a
 * sink of that token a pool showed before. Only runs that hold a pool's leg count: a token's logs
 * can teach sinks for that token alone, and a transfer that is not beside a leg is never a fee.
 */
function feesToSinks(
  logs: ChainLog[],
  kinds: Map<string, PoolAction["kind"]>,
  state: ChainState,
  out: RangeRows,
): Map<number, string> {
  type Transfer = Extract<ChainLog, { kind: "transfer" }>;
  const runs: Transfer[][] = [];
  for (const l of logs) {
    if (l.kind !== "transfer" || !state.tokens.has(l.address)) continue;
    const last = runs.at(-1)?.at(-1);
    if (last && last.logIndex === l.logIndex - 1 && last.address === l.address && last.from === l.from)
      runs.at(-1)!.push(l);
    else runs.push([l]);
  }
  /** What each pool's swaps sent out of its indexed token, and to whom. */
  const sent = (pool: PoolState, token: string) =>
    logs.flatMap((l) => {
      if (l.address !== pool.address || (l.kind !== "swap" && l.kind !== "swapV3")) return [];
      const tokenIs0 = pool.token0 === token;
      const amount = l.kind === "swap" ? (tokenIs0 ? l.amount0Out : l.amount1Out) : -(tokenIs0 ? l.amount0 : l.amount1);
      return [{ recipient: l.recipient, amount }];
    });
  const fees = new Map<number, string>();
  const shown = new Set<Transfer[]>();
  // Runs out of pools first: a swap out of the pool can show a sink that a payer's run of the same transaction pays.
  for (const run of runs) {
    const pool = state.pools.get(run[0].from);
    if (run.length < 2 || !pool || kinds.get(pool.address) !== "swap") continue;
    const token = run[0].address;
    const total = run.reduce((sum, t) => sum + t.value, 0n);
    const swap = sent(pool, token).find(
      (s) => s.amount === total && run.filter((t) => t.to === s.recipient).length === 1,
    );
    const cuts = run.filter((t) => t.to !== swap?.recipient && t.to !== t.from && !state.nonHolders.has(t.to));
    if (!swap || cuts.length !== run.length - 1) continue;
    const sinks = state.feeSinks.get(token) ?? new Set<string>();
    for (const t of cuts) {
      fees.set(t.logIndex, pool.address);
      // A burn or the token's own balance is a fee sink without being shown (isFeeSink).
      if (isFeeSink(t.to, token) || sinks.has(t.to)) continue;
      out.feeSinks.push({ token, sink: t.to });
      sinks.add(t.to);
    }
    if (sinks.size > 0) state.feeSinks.set(token, sinks);
    shown.add(run);
  }
  for (const run of runs) {
    const sinks = state.feeSinks.get(run[0].address);
    if (run.length < 2 || !sinks || shown.has(run)) continue;
    const cuts = run.filter((t) => sinks.has(t.to) && t.to !== t.from);
    const legs = run.filter((t) => !cuts.includes(t));
    if (cuts.length === 0 || legs.length !== 1) continue;
    const [leg] = legs;
    const pool = kinds.has(leg.to) ? leg.to : kinds.has(leg.from) ? leg.from : null;
    if (pool) for (const t of cuts) fees.set(t.logIndex, pool);
  }
  return fees;
}

/**
 * The position-manager logs of one transaction as position facts. A position is known from the
 * IncreaseLiquidity that created it, paired with the pool Mint just before it whose owner is the
 * manager (which names the pool and ticks); positions in untracked pools stay unknown and their
 * logs are skipped. The NFT's mint Transfer comes before that IncreaseLiquidity, so transfers of
 * positions unknown yet wait for the end of the transaction.
 */
class PositionFolder {
  private lastMint = new Map<string, { pool: string; tickLower: number; tickUpper: number }>();
  private waiting: Extract<ChainLog, { kind: "nftTransfer" }>[] = [];
  /** Where this transaction's rows start: the range's earlier ones are in chain order already. */
  private readonly start: number;

  constructor(
    private readonly state: ChainState,
    private readonly out: RangeRows,
    private readonly txFrom: string,
  ) {
    this.start = out.positionEvents.length;
  }

  poolMinted(owner: string, pool: string, tickLower: number, tickUpper: number) {
    if (this.state.positionManagers.has(owner)) this.lastMint.set(owner, { pool, tickLower, tickUpper });
  }

  /**
   * A locker's lock of a position it holds: the locker names the id only, so the position is the one manager's that
   * knows it.
   */
  locked(l: Extract<ChainLog, { kind: "locked" }>) {
    const managers = [...this.state.positionManagers].filter((m) =>
      this.state.positions.has(positionKey(m, l.tokenId)),
    );
    if (managers.length !== 1) return;
    const [manager] = managers;
    this.out.positionEvents.push({
      block: l.block,
      logIndex: l.logIndex,
      manager,
      tokenId: l.tokenId,
      pool: this.state.positions.get(positionKey(manager, l.tokenId))!.pool,
      kind: l.withdrawable ? "lock_withdrawable" : "lock",
      liquidityDelta: 0n,
      amount0: 0n,
      amount1: 0n,
      owner: l.owner,
      tickLower: null,
      tickUpper: null,
      txHash: l.txHash,
      txFrom: this.txFrom,
    });
  }

  add(l: ChainLog) {
    if (
      l.kind !== "increaseLiquidity" &&
      l.kind !== "decreaseLiquidity" &&
      l.kind !== "collectPosition" &&
      l.kind !== "nftTransfer"
    )
      return;
    const key = positionKey(l.address, l.tokenId);
    let known = this.state.positions.get(key);
    let ticks: { tickLower: number; tickUpper: number } | null = null;
    if (!known && l.kind === "increaseLiquidity") {
      const mint = this.lastMint.get(l.address);
      if (!mint) return;
      known = { pool: mint.pool };
      ticks = mint;
      this.state.addPosition(key, known);
    }
    if (!known) {
      if (l.kind === "nftTransfer") this.waiting.push(l);
      return;
    }
    const row = (kind: PositionEventRow["kind"], fields: Partial<PositionEventRow>): PositionEventRow => ({
      block: l.block,
      logIndex: l.logIndex,
      manager: l.address,
      tokenId: l.tokenId,
      pool: known.pool,
      kind,
      liquidityDelta: 0n,
      amount0: 0n,
      amount1: 0n,
      owner: null,
      tickLower: ticks?.tickLower ?? null,
      tickUpper: ticks?.tickUpper ?? null,
      txHash: l.txHash,
      txFrom: this.txFrom,
      ...fields,
    });
    switch (l.kind) {
      case "increaseLiquidity":
        this.out.positionEvents.push(
          row("increase", { liquidityDelta: l.liquidity, amount0: l.amount0, amount1: l.amount1 }),
        );
        break;
      case "decreaseLiquidity":
        this.out.positionEvents.push(
          row("decrease", { liquidityDelta: -l.liquidity, amount0: l.amount0, amount1: l.amount1 }),
        );
        break;
      case "collectPosition":
        this.out.positionEvents.push(row("collect", { amount0: l.amount0, amount1: l.amount1, owner: l.recipient }));
        break;
      case "nftTransfer":
        this.out.positionEvents.push(row("transfer", { owner: l.to }));
        break;
    }
  }

  finish() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const l of waiting) if (this.state.positions.has(positionKey(l.address, l.tokenId))) this.add(l);
    if (waiting.length === 0) return;
    const rows = this.out.positionEvents;
    const own = rows.splice(this.start).sort((a, b) => a.logIndex - b.logIndex);
    for (const r of own) rows.push(r);
  }
}

// Rows are built as object literals, not spreads of a shared part: this runs for every log, and a
// spread costs many times a literal (decode.ts, withRef).

/** The pool's balances after log `l`. */
function reserveRow(p: PoolState, l: ChainLog, v3: boolean): ReserveRow {
  return {
    pool: p.address,
    block: l.block,
    logIndex: l.logIndex,
    v3,
    reserve0: p.reserve0,
    reserve1: p.reserve1,
    sqrtPriceX96: p.sqrtPriceX96,
    tick: p.tick,
    liquidity: p.liquidity,
  };
}

const abs = (x: bigint) => (x < 0n ? -x : x);

/** A pool's (token, quote) amounts from its (token0, token1) ones. */
const pick = (tokenIs0: boolean, a0: bigint, a1: bigint): [bigint, bigint] => (tokenIs0 ? [a0, a1] : [a1, a0]);

/** A token transfer's row, its USD value still to set. */
function transferRow(
  l: Extract<ChainLog, { kind: "transfer" }>,
  block: BlockData,
  txFrom: string,
  kind: TransferKind,
): TransferRow {
  return {
    block: l.block,
    logIndex: l.logIndex,
    txHash: l.txHash,
    timestamp: block.timestamp,
    token: l.address,
    from: l.from,
    to: l.to,
    amount: l.value,
    txFrom,
    kind,
    amountUsd: 0,
  };
}

function legKind(action: PoolAction["kind"], outOfPool: boolean): TransferKind {
  if (action === "swap") return outOfPool ? "buy" : "sell";
  return action === "mint" ? "lp_add" : "lp_remove";
}
