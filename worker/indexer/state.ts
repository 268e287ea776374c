import type { ChainProfile } from "../profiles";
import type { Tx } from "./sql";

export type TokenInfo = { address: string; decimals: number; createdBlock: number };
export type PoolState = {
  address: string;
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
  createdBlock: number;
};

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
  /** Tokens and pools in quarantine (quarantined_entities): never watched, never discovered again. */
  readonly quarantined = new Set<string>();
  /** Tokens marked balance_mismatch: their balances are checked with balanceOf in every range that moves them. */
  readonly mismatched = new Set<string>();

  constructor(readonly profile: ChainProfile) {
    this.stables = new Set(profile.quoteTokens.filter((q) => q.stable).map((q) => q.address));
    this.quoteDecimals = new Map(profile.quoteTokens.map((q) => [q.address, q.decimals]));
  }

  static async load(sql: Tx, profile: ChainProfile): Promise<ChainState> {
    const state = new ChainState(profile);
    const quarantined = await sql<{ address: string }[]>`select address from quarantined_entities where kind in ('token', 'pool')`;
    for (const q of quarantined) state.quarantined.add(q.address);
    const tokens = await sql<{ address: string; decimals: number; created_block: string; mismatched: boolean }[]>`
      select address, decimals, created_block, 'balance_mismatch' = any(anomalies) as mismatched from tokens`;
    for (const t of tokens) {
      if (state.quarantined.has(t.address)) continue;
      state.addToken({ address: t.address, decimals: t.decimals, createdBlock: Number(t.created_block) });
      if (t.mismatched) state.mismatched.add(t.address);
    }
    const pools = await sql<{ address: string; token0: string; token1: string; reserve0: string; reserve1: string; created_block: string }[]>`
      select address, token0, token1, reserve0::text, reserve1::text, created_block from pools`;
    for (const p of pools) {
      // A pool of a quarantined token goes with it, unless another side still wants it.
      if (state.quarantined.has(p.address) || !state.wantsPool(p.token0, p.token1)) continue;
      state.addPool({
        address: p.address,
        token0: p.token0,
        token1: p.token1,
        reserve0: BigInt(p.reserve0),
        reserve1: BigInt(p.reserve1),
        createdBlock: Number(p.created_block),
      });
    }
    return state;
  }

  isQuote = (address: string) => this.quoteDecimals.has(address);

  decimalsOf(address: string): number {
    return this.tokens.get(address)?.decimals ?? this.quoteDecimals.get(address) ?? 18;
  }

  addToken(t: TokenInfo) {
    this.tokens.set(t.address, t);
  }

  addPool(p: PoolState) {
    this.pools.set(p.address, p);
    const other = p.token0 === this.profile.weth ? p.token1 : p.token1 === this.profile.weth ? p.token0 : null;
    if (other && this.stables.has(other)) this.wethStablePools.push(p);
    for (const token of [p.token0, p.token1]) {
      const list = this.poolsByToken.get(token) ?? [];
      list.push(p);
      this.poolsByToken.set(token, list);
    }
  }

  /** A pool is tracked when it can carry events (an indexed token on a side) or prices WETH. */
  wantsPool(token0: string, token1: string): boolean {
    return this.tokens.has(token0) || this.tokens.has(token1) || (this.isQuote(token0) && this.isQuote(token1));
  }

  /** Pool reserves as they stand, to undo what a transform that did not commit moved. */
  saveReserves(): () => void {
    const saved = [...this.pools.values()].map((p) => [p, p.reserve0, p.reserve1] as const);
    return () => {
      for (const [p, r0, r1] of saved) [p.reserve0, p.reserve1] = [r0, r1];
    };
  }

  /** Every address whose logs stage two fetches. */
  watchedAddresses(): string[] {
    return [...this.tokens.keys(), ...this.pools.keys()];
  }
}
