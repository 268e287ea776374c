import { names, PREPARED, tableName } from "@/db/bulk";
import { lpPositions, pools as poolsTable, quarantinedEntities, tokens as tokensTable } from "@/db/schema";
import type { ChainProfile, ProtocolKind } from "../profiles";
import type { Tx } from "./sql";

export type TokenInfo = { address: string; decimals: number; createdBlock: number };
export type PoolState = {
  address: string;
  protocol: ProtocolKind;
  token0: string;
  token1: string;
  /** The pool's token balances (V2: its last Sync; V3: folded from its events). */
  reserve0: bigint;
  reserve1: bigint;
  /** V3 only (0 on V2): slot0's price and tick, and the active liquidity. */
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  createdBlock: number;
};

const [qe, tk, pl, lp] = [names(quarantinedEntities), names(tokensTable), names(poolsTable), names(lpPositions)];
const QUARANTINED = `select ${qe.address} as address from ${tableName(quarantinedEntities)}
  where ${qe.kind} in ('token', 'pool')`;
const TOKENS = `select ${tk.address} as address, ${tk.decimals} as decimals, ${tk.createdBlock} as "createdBlock",
  'balance_mismatch' = any(${tk.anomalies}) as mismatched, ${tk.feeSinks} as "feeSinks"
  from ${tableName(tokensTable)}`;
/** A stored token; the block number as postgres.js reads int8 (a string). */
type StoredToken = Pick<typeof tokensTable.$inferSelect, "address" | "decimals" | "feeSinks"> & {
  createdBlock: string;
  mismatched: boolean;
};
const POOLS = `select ${pl.address} as address, ${pl.protocol} as protocol, ${pl.token0} as token0,
  ${pl.token1} as token1, ${pl.reserve0}::text as reserve0, ${pl.reserve1}::text as reserve1,
  ${pl.sqrtPriceX96}::text as "sqrtPriceX96", ${pl.tick} as tick, ${pl.liquidity}::text as liquidity,
  ${pl.createdBlock} as "createdBlock" from ${tableName(poolsTable)}`;
/** A stored pool; the block number as postgres.js reads int8 (a string). */
type StoredPool = Pick<
  typeof poolsTable.$inferSelect,
  "address" | "token0" | "token1" | "reserve0" | "reserve1" | "sqrtPriceX96" | "tick" | "liquidity"
> & { protocol: ProtocolKind; createdBlock: string };
const POSITIONS = `select ${lp.manager} as manager, ${lp.tokenId}::text as "tokenId", ${lp.poolAddress} as "poolAddress"
  from ${tableName(lpPositions)}`;

/** The V3 state of a pool as it stands, and what a pool_reserves row records. */
export type PoolBalances = Pick<PoolState, "reserve0" | "reserve1" | "sqrtPriceX96" | "tick" | "liquidity">;

export const positionKey = (manager: string, tokenId: bigint) => `${manager}:${tokenId}`;

/**
 * The indexer's in-memory view of what it tracks: tokens, pools and their current reserves.
 * It mirrors committed rows plus the batch being written; after any failed write or a rollback
 * it is reloaded from the database, never patched.
 */
export class ChainState {
  readonly tokens = new Map<string, TokenInfo>();
  readonly pools = new Map<string, PoolState>();
  readonly poolsByToken = new Map<string, PoolState[]>();
  /** The pairs that price WETH (WETH against a stablecoin). */
  readonly wethStablePools: PoolState[] = [];
  readonly quoteDecimals: Map<string, number>;
  readonly stables: Set<string>;
  /** Senders of quote-token payments seen holding code (derive/funding.ts): contracts, not funders. */
  readonly withCode = new Set<string>();
  /** Tokens and pools in quarantine (quarantined_entities): never watched, never discovered again. */
  readonly quarantined = new Set<string>();
  /** Tokens marked balance_mismatch: their balances are checked with balanceOf in every range that moves them. */
  readonly mismatched = new Set<string>();
  /**
   * Per fee-on-transfer token, the ordinary addresses its swaps showed it pays its cut to (transform.ts feesToSinks).
   */
  readonly feeSinks = new Map<string, Set<string>>();
  /** V3 positions in tracked pools, by positionKey: the pool each belongs to. */
  readonly positions = new Map<string, { pool: string }>();
  readonly positionManagers: Set<string>;
  /** LP lockers: their Locked events are read as facts of the positions they hold. */
  readonly lockers: Set<string>;
  /** Contracts that hold tokens for others, never holders themselves: position managers and lockers. */
  readonly custodians: Set<string>;
  /** Addresses that hold tokens without being holders: pools and custodians (lib/tokens/holders.ts). */
  readonly nonHolders = { has: (address: string) => this.pools.has(address) || this.custodians.has(address) };
  /** Every address whose logs stage two fetches, in the order first watched: nothing is ever unwatched. */
  private readonly watched: string[];
  /** What transforms moved or learnt since the last saveReserves, as it was before them. */
  private journal: { pools: Map<PoolState, PoolBalances>; positions: string[] } | null = null;

  constructor(readonly profile: ChainProfile) {
    this.stables = new Set(profile.quoteTokens.filter((q) => q.stable).map((q) => q.address));
    this.quoteDecimals = new Map(profile.quoteTokens.map((q) => [q.address, q.decimals]));
    this.positionManagers = new Set(profile.positionManagers.map((m) => m.address));
    this.lockers = new Set(profile.lockers.map((l) => l.address));
    this.custodians = new Set([...this.positionManagers, ...this.lockers]);
    this.watched = [...this.positionManagers, ...this.lockers];
  }

  static async load(sql: Tx, profile: ChainProfile): Promise<ChainState> {
    const state = new ChainState(profile);
    const quarantined = await sql.unsafe<{ address: string }[]>(QUARANTINED, [], PREPARED);
    for (const q of quarantined) state.quarantined.add(q.address);
    const tokens = await sql.unsafe<StoredToken[]>(TOKENS, [], PREPARED);
    for (const t of tokens) {
      if (state.quarantined.has(t.address)) continue;
      state.addToken({ address: t.address, decimals: t.decimals, createdBlock: Number(t.createdBlock) });
      if (t.mismatched) state.mismatched.add(t.address);
      if (t.feeSinks.length > 0) state.feeSinks.set(t.address, new Set(t.feeSinks));
    }
    const pools = await sql.unsafe<StoredPool[]>(POOLS, [], PREPARED);
    for (const p of pools) {
      // A pool of a quarantined token goes with it, unless another side still wants it.
      if (state.quarantined.has(p.address) || !state.wantsPool(p.token0, p.token1)) continue;
      state.addPool({
        address: p.address,
        protocol: p.protocol,
        token0: p.token0,
        token1: p.token1,
        reserve0: BigInt(p.reserve0),
        reserve1: BigInt(p.reserve1),
        sqrtPriceX96: BigInt(p.sqrtPriceX96 ?? 0),
        tick: p.tick ?? 0,
        liquidity: BigInt(p.liquidity ?? 0),
        createdBlock: Number(p.createdBlock),
      });
    }
    const positions = await sql.unsafe<Pick<typeof lpPositions.$inferSelect, "manager" | "tokenId" | "poolAddress">[]>(
      POSITIONS,
      [],
      PREPARED,
    );
    for (const p of positions)
      if (state.pools.has(p.poolAddress))
        state.addPosition(positionKey(p.manager, BigInt(p.tokenId)), { pool: p.poolAddress });
    return state;
  }

  isQuote = (address: string) => this.quoteDecimals.has(address);

  decimalsOf(address: string): number {
    return this.tokens.get(address)?.decimals ?? this.quoteDecimals.get(address) ?? 18;
  }

  addToken(t: TokenInfo) {
    if (!this.tokens.has(t.address)) this.watched.push(t.address);
    this.tokens.set(t.address, t);
  }

  addPool(p: PoolState) {
    if (!this.pools.has(p.address)) this.watched.push(p.address);
    this.pools.set(p.address, p);
    const other = p.token0 === this.profile.weth ? p.token1 : p.token1 === this.profile.weth ? p.token0 : null;
    if (other && this.stables.has(other)) this.wethStablePools.push(p);
    for (const token of [p.token0, p.token1]) {
      const list = this.poolsByToken.get(token) ?? [];
      list.push(p);
      this.poolsByToken.set(token, list);
    }
  }

  /**
   * Learns what discovery found: each token, and each pool still wanted, not known yet (a pool's
   * balances start at zero and follow its logs). Again after a reload, for a fetched range whose
   * discoveries the database does not hold yet.
   */
  discovered(tokens: TokenInfo[], pools: Omit<PoolState, keyof PoolBalances>[]) {
    for (const { address, decimals, createdBlock } of tokens) {
      if (!this.tokens.has(address) && !this.quarantined.has(address))
        this.addToken({ address, decimals, createdBlock });
    }
    for (const p of pools) {
      if (this.pools.has(p.address) || this.quarantined.has(p.address) || !this.wantsPool(p.token0, p.token1)) continue;
      this.addPool({ ...p, reserve0: 0n, reserve1: 0n, sqrtPriceX96: 0n, tick: 0, liquidity: 0n });
    }
  }

  /** A pool is tracked when it can carry events (an indexed token on a side) or prices WETH. */
  wantsPool(token0: string, token1: string): boolean {
    return this.tokens.has(token0) || this.tokens.has(token1) || (this.isQuote(token0) && this.isQuote(token1));
  }

  /**
   * Pool state, positions and fee sinks as they stand, to undo what a transform that did not commit
   * moved or learnt: the returned restore puts them back, as often as it is called, until the next
   * save. Pools and positions are journaled as a transform changes them (`moving`, `addPosition`),
   * so a range costs what it moved, not the number of pools; fee sinks (few) are copied whole.
   */
  saveReserves(): () => void {
    const journal = { pools: new Map<PoolState, PoolBalances>(), positions: [] as string[] };
    this.journal = journal;
    const sinks = [...this.feeSinks].map(([token, s]) => [token, new Set(s)] as const);
    return () => {
      for (const [p, b] of journal.pools) Object.assign(p, b);
      for (const key of journal.positions.splice(0)) this.positions.delete(key);
      this.feeSinks.clear();
      for (const [token, s] of sinks) this.feeSinks.set(token, new Set(s));
    };
  }

  /** To be called before a pool's balances change: every change to them follows it (saveReserves). */
  moving(p: PoolState) {
    if (this.journal && !this.journal.pools.has(p)) this.journal.pools.set(p, balancesOf(p));
  }

  /** A V3 position found in a tracked pool (saveReserves undoes it). */
  addPosition(key: string, position: { pool: string }) {
    this.positions.set(key, position);
    this.journal?.positions.push(key);
  }

  /**
   * Every address whose logs stage two fetches, from the `from`-th watched on: addresses are only
   * ever added, so `watchedAddresses(n)` after reading n of them is what was watched since.
   */
  watchedAddresses(from = 0): string[] {
    return this.watched.slice(from);
  }

  /** How many addresses watchedAddresses() gives. */
  watchedCount(): number {
    return this.watched.length;
  }

  /** Whether stage two reads this address's logs. */
  watches(address: string): boolean {
    return (
      this.tokens.has(address) ||
      this.pools.has(address) ||
      this.positionManagers.has(address) ||
      this.lockers.has(address)
    );
  }
}

export const balancesOf = (p: PoolState): PoolBalances => ({
  reserve0: p.reserve0,
  reserve1: p.reserve1,
  sqrtPriceX96: p.sqrtPriceX96,
  tick: p.tick,
  liquidity: p.liquidity,
});
