import { type InTx, insertBatched, names, PREPARED, pipelined, type Tx, tableName } from "@/db/bulk";
import { liquidityStakes, walletPositions } from "@/db/schema";
import { isRealHolder } from "@/lib/tokens/holders";
import type { ChainState } from "../indexer/state";
import { type LiquidityRow, poolSides, type RangeRows, type TransferRow } from "../indexer/transform";
import { usd } from "./prices";

export type Position = {
  wallet: string;
  token: string;
  quantity: bigint;
  costBasisUsd: number;
  realizedPnlUsd: number;
  boughtUsd: number;
  soldUsd: number;
  unknownCostQuantity: bigint;
  buyCount: number;
  sellCount: number;
  firstBuyBlock: number | null;
  lastTradeBlock: number | null;
  /** The cost of the wallet's liquidity stakes in the token's pools (their sum). */
  liquidityCostUsd: number;
};

/** A wallet's position in a token before its first movement. */
export const emptyPosition = (wallet: string, token: string): Position => ({
  wallet,
  token,
  quantity: 0n,
  costBasisUsd: 0,
  realizedPnlUsd: 0,
  boughtUsd: 0,
  soldUsd: 0,
  unknownCostQuantity: 0n,
  buyCount: 0,
  sellCount: 0,
  firstBuyBlock: null,
  lastTradeBlock: null,
  liquidityCostUsd: 0,
});

/** A wallet's liquidity in one pool: what it added and has not removed (in liquidity_changes units), and its cost. */
export type Stake = { wallet: string; pool: string; token: string; units: bigint; costUsd: number };

export const emptyStake = (wallet: string, pool: string, token: string): Stake => ({
  wallet,
  pool,
  token,
  units: 0n,
  costUsd: 0,
});

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Whether tokens a pool paid out on a liquidity removal are the remover's own: they went to the
 * transaction's sender, whose stake the removal realizes. Elsewhere (an intermediary such as a
 * router, or another wallet) they arrive as a transfer would.
 */
const removersOwn = (t: TransferRow) => t.kind === "lp_remove" && t.to === t.txFrom;

/**
 * Average-cost accounting of one token movement for the wallet on `side`. Buys bring tokens at
 * their USD cost; a liquidity removal's tokens that reach the remover are bought at their value
 * with the removal's proceeds (that value counts as realized, and as their cost); transfers,
 * mints and tokens a removal sent elsewhere come at unknown cost (counted at zero, and
 * remembered, which lowers pnl_confidence). Every outgoing movement takes its share of the cost
 * basis and of the unknown-cost quantity (all of them when the books show less than it moves); a
 * sell realizes profit or loss, and a fee-on-transfer token's fee on a sell or liquidity leg
 * realizes its cost as a loss (those tokens are gone for nothing). Returns the cost basis an
 * outgoing movement took (what a liquidity add puts into the stake).
 */
export function applyMovement(p: Position, t: TransferRow, side: "in" | "out"): number {
  if (side === "in") {
    p.quantity += t.amount;
    if (t.kind === "buy" || removersOwn(t)) p.costBasisUsd += t.amountUsd;
    // Never more of unknown cost than is held (after a quantity below zero: tokens spent before their opening balance
    // was known).
    else p.unknownCostQuantity = min(p.unknownCostQuantity + t.amount, p.quantity > 0n ? p.quantity : 0n);
    if (removersOwn(t)) p.realizedPnlUsd += t.amountUsd;
    if (t.kind === "buy") {
      p.boughtUsd += t.amountUsd;
      p.buyCount += 1;
      p.firstBuyBlock ??= t.block;
      p.lastTradeBlock = t.block;
    }
    return 0;
  }
  const all = p.quantity <= 0n || t.amount >= p.quantity;
  const cost = all ? p.costBasisUsd : (p.costBasisUsd * Number(t.amount)) / Number(p.quantity);
  p.costBasisUsd -= cost;
  p.unknownCostQuantity -= all ? p.unknownCostQuantity : (p.unknownCostQuantity * t.amount) / p.quantity;
  p.quantity -= t.amount;
  if (t.kind === "fee") p.realizedPnlUsd -= cost;
  if (t.kind === "sell") {
    p.realizedPnlUsd += t.amountUsd - cost;
    p.soldUsd += t.amountUsd;
    p.sellCount += 1;
    p.lastTradeBlock = t.block;
  }
  return cost;
}

/** The cost of the provider's tokens a liquidity add took into the pool joins its stake (no PnL: they are in it). */
export function addToStake(p: Position, s: Stake, cost: number) {
  s.costUsd += cost;
  p.liquidityCostUsd += cost;
}

/**
 * A liquidity change of the stake's wallet. An add grows the stake by its liquidity and its cost
 * by the quote paid in. A removal releases the share of the stake's cost that its liquidity is of
 * the stake's (all of it when it removes as much or more) and realizes the quote paid out less
 * that cost; a V3 Collect removes no liquidity, so what it pays (the owed amounts of a Burn and
 * the position's trading fees) is all proceeds. The tokens paid out are legs (applyMovement).
 */
export function applyLiquidity(p: Position, s: Stake, c: LiquidityRow) {
  if (c.direction === "add") {
    s.units += c.units;
    addToStake(p, s, c.quoteUsd);
    return;
  }
  const all = c.units >= s.units;
  const released = c.units === 0n ? 0 : all ? s.costUsd : (s.costUsd * Number(c.units)) / Number(s.units);
  s.units = all ? 0n : s.units - c.units;
  s.costUsd -= released;
  p.liquidityCostUsd -= released;
  p.realizedPnlUsd += c.quoteUsd - released;
}

type StoredPosition = {
  wallet: string;
  token_address: string;
  quantity: string;
  cost_basis_usd: number;
  realized_pnl_usd: number;
  bought_usd: number;
  sold_usd: number;
  unknown_cost_quantity: string;
  buy_count: number;
  sell_count: number;
  first_buy_block: string | null;
  last_trade_block: string | null;
  liquidity_cost_usd: number;
};

/** The rows a fold reads: token transfers and liquidity changes, each in chain order. */
export type FoldRows = Pick<RangeRows, "transfers" | "liquidity">;

/** One side of a token transfer, for the wallet on that side. */
type TransferStep = { transfer: TransferRow; side: "in" | "out"; wallet: string };
/** One step of the fold, in chain order: a side of a token transfer, or a liquidity change. */
type Step = { block: number; logIndex: number } & (TransferStep | { change: LiquidityRow });

/** A book's key: a position's wallet and token, or a stake's wallet and pool (addresses hold no colon). */
const bookKey = (wallet: string, of: string) => `${wallet}:${of}`;
/** The wallet and the token (or pool) of a book's key. */
const ofBookKey = (key: string) => key.split(":") as [wallet: string, of: string];

/** The books a fold moves: positions by wallet and token, liquidity stakes by wallet and pool. */
export class Books {
  readonly positions = new Map<string, Position>();
  readonly stakes = new Map<string, Stake>();

  position(wallet: string, token: string): Position {
    const key = bookKey(wallet, token);
    if (!this.positions.has(key)) this.positions.set(key, emptyPosition(wallet, token));
    return this.positions.get(key)!;
  }

  stake(wallet: string, pool: string, token: string): Stake {
    const key = bookKey(wallet, pool);
    if (!this.stakes.has(key)) this.stakes.set(key, emptyStake(wallet, pool, token));
    return this.stakes.get(key)!;
  }
}

/**
 * The fold of token transfers and liquidity changes (chain order) into wallet positions and
 * liquidity stakes. Pairs, burn addresses and the token itself hold no positions. A liquidity
 * change is the transaction sender's (as its event is): its stake in the pool, and the position in
 * the pool's token that the stake's PnL is realized in.
 */
export class PositionFold {
  readonly books = new Books();
  private readonly steps: Step[] = [];

  /** Every book the rows move, empty: the stored ones are read into them (loadStored) before a fold that appends. */
  constructor(
    private readonly state: ChainState,
    rows: FoldRows,
  ) {
    for (const t of rows.transfers) {
      if (!state.tokens.has(t.token)) continue;
      for (const [side, wallet] of [
        ["out", t.from],
        ["in", t.to],
      ] as const) {
        if (!isRealHolder(wallet, t.token, state.nonHolders)) continue;
        this.steps.push({ block: t.block, logIndex: t.logIndex, transfer: t, side, wallet });
        this.books.position(wallet, t.token);
      }
      if (t.kind === "lp_add" && this.provides(t)) {
        this.books.stake(t.txFrom, t.to, t.token);
        this.books.position(t.txFrom, t.token);
      }
    }
    for (const c of rows.liquidity) {
      if (!state.tokens.has(c.token) || !isRealHolder(c.wallet, c.token, state.nonHolders)) continue;
      this.steps.push({ block: c.block, logIndex: c.logIndex, change: c });
      this.books.stake(c.wallet, c.pool, c.token);
      this.books.position(c.wallet, c.token);
    }
    this.steps.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  }

  /** Runs the rows over the books, in chain order. */
  run() {
    const { books } = this;
    for (const step of this.steps) {
      if ("change" in step) {
        const c = step.change;
        applyLiquidity(books.position(c.wallet, c.token), books.stake(c.wallet, c.pool, c.token), c);
        continue;
      }
      const { transfer: t, side, wallet } = step;
      const cost = applyMovement(books.position(wallet, t.token), t, side);
      if (side !== "out" || t.kind !== "lp_add" || !this.provides(t)) continue;
      addToStake(books.position(t.txFrom, t.token), books.stake(t.txFrom, t.to, t.token), cost);
    }
  }

  /**
   * Whether a liquidity add's token leg goes into the stake of the transaction's sender: a leg of
   * the pool's own indexed token (a pool of two indexed tokens stakes the first), from a sender
   * that can hold.
   */
  private provides(t: TransferRow): boolean {
    const pool = this.state.pools.get(t.to);
    if (!pool || poolSides(this.state, pool)?.token !== t.token) return false;
    return isRealHolder(t.txFrom, t.token, this.state.nonHolders);
  }
}

/**
 * Folds token transfers and liquidity changes (chain order) into wallet positions and liquidity
 * stakes (PositionFold), from the stored ones when appending a range or from nothing when
 * rebuilding a token after a reorg.
 */
export async function applyPositions(tx: InTx, state: ChainState, rows: FoldRows, from: "stored" | "zero" | HeldBooks) {
  const fold = new PositionFold(state, rows);
  const { positions, stakes } = fold.books;
  if (positions.size === 0) return;
  if (from === "stored") await loadStored(tx, positions, stakes);
  if (from instanceof HeldBooks) from.fill(fold.books);
  fold.run();
  if (from instanceof HeldBooks) return from.stage(fold.books);
  await pipelined(tx, async (w) => {
    await w.insert(walletPositions, [...positions.values()].map(positionRow), {
      onConflict: { target: ["wallet", "tokenAddress"], action: "update" },
    });
    await w.insert(liquidityStakes, [...stakes.values()].map(stakeRow), {
      onConflict: { target: ["wallet", "poolAddress"], action: "update" },
    });
  });
}

/** A position as its row holds it: the USD figures clamped (prices.ts usd), as they are written. */
const asStored = (p: Position): Position => ({
  ...p,
  costBasisUsd: usd(p.costBasisUsd),
  realizedPnlUsd: usd(p.realizedPnlUsd),
  boughtUsd: usd(p.boughtUsd),
  soldUsd: usd(p.soldUsd),
  liquidityCostUsd: usd(p.liquidityCostUsd),
});
const asStoredStake = (s: Stake): Stake => ({ ...s, costUsd: usd(s.costUsd) });

const positionRow = (position: Position) => {
  const { token, ...p } = asStored(position);
  return { ...p, tokenAddress: token };
};
const stakeRow = (stake: Stake) => {
  const { pool, token, ...s } = asStoredStake(stake);
  return { ...s, poolAddress: pool, tokenAddress: token };
};

/** How many numbers a held position has (HeldPositions.numbers). */
const NUMBERS = 9;

/**
 * Positions held by their books' key with no object of their own: a bulk load holds millions, and
 * each as an object (its USD figures boxed, its quantities, its addresses) is a dozen small objects
 * that every full collection marks. A position is a slot: its numbers at the slot's stride of one
 * array of numbers only (stored unboxed; a null block as NaN), its quantities in two arrays.
 */
class HeldPositions {
  private readonly slots = new Map<string, number>();
  private readonly numbers: number[] = [];
  private readonly quantity: bigint[] = [];
  private readonly unknownCostQuantity: bigint[] = [];

  /** Copies the held position of `key` into `p`; leaves `p` as it is when none is held. */
  read(key: string, p: Position) {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    const n = this.numbers;
    const at = slot * NUMBERS;
    p.quantity = this.quantity[slot];
    p.unknownCostQuantity = this.unknownCostQuantity[slot];
    p.costBasisUsd = n[at];
    p.realizedPnlUsd = n[at + 1];
    p.boughtUsd = n[at + 2];
    p.soldUsd = n[at + 3];
    p.liquidityCostUsd = n[at + 4];
    p.buyCount = n[at + 5];
    p.sellCount = n[at + 6];
    p.firstBuyBlock = Number.isNaN(n[at + 7]) ? null : n[at + 7];
    p.lastTradeBlock = Number.isNaN(n[at + 8]) ? null : n[at + 8];
  }

  /** Holds `p` as its row stores it (asStored). */
  hold(key: string, p: Position) {
    let slot = this.slots.get(key);
    if (slot === undefined) this.slots.set(key, (slot = this.quantity.length));
    const n = this.numbers;
    const at = slot * NUMBERS;
    const stored = asStored(p);
    this.quantity[slot] = stored.quantity;
    this.unknownCostQuantity[slot] = stored.unknownCostQuantity;
    n[at] = stored.costBasisUsd;
    n[at + 1] = stored.realizedPnlUsd;
    n[at + 2] = stored.boughtUsd;
    n[at + 3] = stored.soldUsd;
    n[at + 4] = stored.liquidityCostUsd;
    n[at + 5] = stored.buyCount;
    n[at + 6] = stored.sellCount;
    n[at + 7] = stored.firstBuyBlock ?? Number.NaN;
    n[at + 8] = stored.lastTradeBlock ?? Number.NaN;
  }

  /** Every held position, in its primary key's order (wallet, token), as HeldBalances.write says why. */
  *all(): Generator<Position> {
    for (const key of [...this.slots.keys()].sort()) {
      const [wallet, token] = ofBookKey(key);
      const p = emptyPosition(wallet, token);
      this.read(key, p);
      yield p;
    }
  }
}

/**
 * A bulk load's positions and stakes (held.ts), as their rows would store them (asStored), so
 * every fold reads what it would have read back from the database.
 */
export class HeldBooks {
  private readonly positions = new HeldPositions();
  private readonly stakes = new Map<string, Stake>();
  private staged: Books | null = null;

  /** Copies the held books of `books`' keys into them, as loadStored reads the stored ones. */
  fill(books: Books) {
    for (const [key, p] of books.positions) this.positions.read(key, p);
    for (const [key, s] of books.stakes) Object.assign(s, this.stakes.get(key));
  }

  /** A range's folded books, held if its transaction commits (keep) and forgotten if not (drop). */
  stage(books: Books) {
    this.staged = books;
  }

  keep() {
    if (!this.staged) return;
    for (const [key, p] of this.staged.positions) this.positions.hold(key, p);
    for (const [key, s] of this.staged.stakes) this.stakes.set(key, asStoredStake(s));
    this.staged = null;
  }

  drop() {
    this.staged = null;
  }

  /** Inserts every held position and stake (the tables hold none of them yet). */
  async write(tx: InTx) {
    await insertBatched(tx, walletPositions, this.positions.all(), positionRow);
    await insertBatched(tx, liquidityStakes, this.stakes.values(), stakeRow);
  }
}

const wp = names(walletPositions);
const ls = names(liquidityStakes);

/**
 * Reads the stored positions and stakes of the fold's keys into them. Both reads are sent before
 * this returns to its caller (deriveRange sends other steps' statements after them).
 */
async function loadStored(tx: Tx, positions: Map<string, Position>, stakes: Map<string, Stake>) {
  const keys = [...positions.values()];
  const pools = [...stakes.values()];
  const [stored, held] = await Promise.all([
    tx.unsafe<StoredPosition[]>(
      `select p.${wp.wallet} as wallet, p.${wp.tokenAddress} as token_address, p.${wp.quantity}::text as quantity,
              p.${wp.costBasisUsd} as cost_basis_usd, p.${wp.realizedPnlUsd} as realized_pnl_usd,
              p.${wp.boughtUsd} as bought_usd, p.${wp.soldUsd} as sold_usd,
              p.${wp.unknownCostQuantity}::text as unknown_cost_quantity, p.${wp.buyCount} as buy_count,
              p.${wp.sellCount} as sell_count, p.${wp.firstBuyBlock} as first_buy_block,
              p.${wp.lastTradeBlock} as last_trade_block, p.${wp.liquidityCostUsd} as liquidity_cost_usd
         from ${tableName(walletPositions)} p join unnest($1::text[], $2::text[]) k(wallet, token)
           on p.${wp.wallet} = k.wallet and p.${wp.tokenAddress} = k.token`,
      [keys.map((k) => k.wallet), keys.map((k) => k.token)],
      PREPARED,
    ),
    pools.length === 0
      ? []
      : tx.unsafe<{ wallet: string; pool_address: string; units: string; cost_usd: number }[]>(
          `select s.${ls.wallet} as wallet, s.${ls.poolAddress} as pool_address, s.${ls.units}::text as units,
                  s.${ls.costUsd} as cost_usd
             from ${tableName(liquidityStakes)} s join unnest($1::text[], $2::text[]) k(wallet, pool)
               on s.${ls.wallet} = k.wallet and s.${ls.poolAddress} = k.pool`,
          [pools.map((k) => k.wallet), pools.map((k) => k.pool)],
          PREPARED,
        ),
  ]);
  for (const s of stored) {
    Object.assign(positions.get(bookKey(s.wallet, s.token_address))!, {
      quantity: BigInt(s.quantity),
      costBasisUsd: s.cost_basis_usd,
      realizedPnlUsd: s.realized_pnl_usd,
      boughtUsd: s.bought_usd,
      soldUsd: s.sold_usd,
      unknownCostQuantity: BigInt(s.unknown_cost_quantity),
      buyCount: s.buy_count,
      sellCount: s.sell_count,
      firstBuyBlock: s.first_buy_block === null ? null : Number(s.first_buy_block),
      lastTradeBlock: s.last_trade_block === null ? null : Number(s.last_trade_block),
      liquidityCostUsd: s.liquidity_cost_usd,
    });
  }
  for (const s of held) {
    const stake = stakes.get(bookKey(s.wallet, s.pool_address))!;
    [stake.units, stake.costUsd] = [BigInt(s.units), s.cost_usd];
  }
}
