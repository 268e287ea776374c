import { names, tableName } from "@/db/bulk";
import {
  balances,
  events,
  pools,
  tokenMetrics,
  tokens as tokensTable,
  walletPositions,
  walletScores,
  wallets,
} from "@/db/schema";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import type {
  ClusterFacts,
  Holder,
  HolderTag,
  Sector,
  SmartMoneyHolding,
  SummaryInput,
  Swap,
  TokenRiskInput,
  TokenRiskParts,
} from "@/lib/scoring";
import { WINDOWS } from "@/lib/scoring";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { Tx } from "../../indexer/sql";
import type { ChainState } from "../../indexer/state";
import { knownContracts } from "../../profiles/contracts";
import { firstEventIdAfter, type Head } from "../metrics";
import { clusterSizeSql } from "./cluster-size";
import { liquidityChanges, liquidityHistories } from "./liquidity";
import { lpLockedShares } from "./lp-locks";
import { BY_TOKEN_IN_ID_ORDER, SWAP_FIELDS, type SwapRow, toTrade } from "./swaps";

/** Holders read per token (the scoring input's contract), plus every member of their clusters. */
const TOP_HOLDERS = 1_000;

const bl = names(balances);
const ev = names(events);
const pl = names(pools);
const tk = names(tokensTable);
const tm = names(tokenMetrics);
const wl = names(wallets);
const wp = names(walletPositions);
const ws = names(walletScores);
const BALANCES = tableName(balances);
const EVENTS = tableName(events);
const TOKENS = tableName(tokensTable);
const WALLETS = tableName(wallets);

/** What the summary needs besides the risk result. */
export type TokenDescription = Pick<SummaryInput, "name" | "symbol" | "sector" | "launchpad" | "createdAt"> &
  Pick<SummaryInput, "marketCapUsd" | "volume24hUsd" | "liquidityUsd" | "holderCount" | "holderGrowth1hPct">;

export type GatheredToken = { input: TokenRiskInput; description: TokenDescription };

const groupInto = <R, V>(tokens: string[], rows: R[], key: (r: R) => string, value: (r: R) => V) => {
  const out = new Map<string, V[]>(tokens.map((t) => [t, []]));
  for (const r of rows) out.get(key(r))?.push(value(r));
  return out;
};

type TokenRow = TokenDescription & { address: string; launch_block: string; supply: number; burned: number };

async function tokenRows(tx: Tx, tokens: string[]) {
  return tx.unsafe<TokenRow[]>(
    `select t.${tk.address} as address, t.${tk.createdBlock} as launch_block, t.${tk.totalSupply}::float8 as supply,
            t.${tk.name} as name, t.${tk.symbol} as symbol, t.${tk.sector} as sector, t.${tk.launchpad} as launchpad,
            extract(epoch from t.${tk.createdAt})::float8 as "createdAt",
            coalesce((select sum(b.${bl.amount})::float8
              from ${BALANCES} b where b.${bl.tokenAddress} = t.${tk.address} and b.${bl.holder} = any($2::text[])), 0)
              as burned,
            coalesce(m.${tm.marketCapUsd}, 0) as "marketCapUsd", coalesce(m.${tm.volume24hUsd}, 0) as "volume24hUsd",
            coalesce(m.${tm.liquidityUsd}, 0) as "liquidityUsd", coalesce(m.${tm.holderCount}, 0) as "holderCount",
            coalesce(m.${tm.holderGrowth1hPct}, 0) as "holderGrowth1hPct"
       from ${TOKENS} t left join ${tableName(tokenMetrics)} m on m.${tm.address} = t.${tk.address}
      where t.${tk.address} = any($1::text[])`,
    [tokens, [...BURN_ADDRESSES]],
  );
}

type HolderRow = {
  token: string;
  address: string;
  amount: number;
  cluster_id: string | null;
  funder: string | null;
  is_contract: boolean;
  is_pool: boolean;
};

/** The largest holders of each token and the other members of their clusters, with tags. */
async function holders(tx: Tx, state: ChainState, tokens: string[]): Promise<Map<string, Holder[]>> {
  const contracts = knownContracts(state.profile).map((c) => c.address);
  const rows = await tx.unsafe<HolderRow[]>(
    `with ranked as (
       select b.${bl.tokenAddress} as token_address, b.${bl.holder} as holder, b.${bl.amount} as amount,
              row_number() over (partition by b.${bl.tokenAddress} order by b.${bl.amount} desc, b.${bl.holder}) as rank
         from ${BALANCES} b where b.${bl.tokenAddress} = any($1::text[]) and b.${bl.amount} > 0),
     top_clusters as (
       select distinct r.token_address, w.${wl.clusterId} as cluster_id
         from ranked r join ${WALLETS} w on w.${wl.address} = r.holder
        where r.rank <= $2 and w.${wl.clusterId} is not null),
     picked as (
       select r.token_address, r.holder, r.amount from ranked r where r.rank <= $2
       union all
       select r.token_address, r.holder, r.amount from ranked r join ${WALLETS} w on w.${wl.address} = r.holder
         join top_clusters c on c.token_address = r.token_address and c.cluster_id = w.${wl.clusterId}
        where r.rank > $2)
     select p.token_address as token, p.holder as address, p.amount::float8 as amount,
            w.${wl.clusterId} as cluster_id, w.${wl.funder} as funder,
            (coalesce(w.${wl.isContract}, 0) = 1 or p.holder = p.token_address or p.holder = any($3::text[]))
              as is_contract,
            exists (select 1 from ${tableName(pools)} x where x.${pl.address} = p.holder) as is_pool
       from picked p left join ${WALLETS} w on w.${wl.address} = p.holder
      order by p.token_address, p.amount desc, p.holder`,
    [tokens, TOP_HOLDERS, contracts],
  );
  const burn = new Set<string>(BURN_ADDRESSES);
  return groupInto(
    tokens,
    rows,
    (r) => r.token,
    (r): Holder => {
      const tags: HolderTag[] = [];
      if (r.is_pool) tags.push("pool");
      if (burn.has(r.address)) tags.push("burn");
      if (r.is_contract) tags.push("contract");
      return { address: r.address, balance: r.amount, tags, clusterId: r.cluster_id, funder: r.funder };
    },
  );
}

/** A swap with its trader's funding links (wallets `w`). */
type FundedSwapRow = SwapRow & { funder: string | null; cluster_id: string | null };

const toSwap = (r: FundedSwapRow): Swap => toTrade(r, { wallet: r.wallet, funder: r.funder, clusterId: r.cluster_id });

const SWAP_COLUMNS = `${SWAP_FIELDS}, w.${wl.funder} as funder, w.${wl.clusterId} as cluster_id`;

/** A swap of e in the lookback window: after the time `since` (Unix seconds), at or before the block `head`. */
const inLookback = (since: string, head: string) =>
  `e.${ev.type} = 'swap' and e.${ev.timestamp} > to_timestamp(${since}) and e.${ev.blockNumber} <= ${head}`;

/**
 * Swaps of the lookback window, and the buys of each token's early-mover window however old. Each
 * token's by its own index range (token, id), its window's ids bounded (db/event-ids.ts): over
 * `token = any(...)` PostgreSQL read every event the slice's tokens ever had, through a bitmap
 * that went lossy at 5M actions, a cost that grew with the chain's history. The recent swaps'
 * lateral is ordered so that PostgreSQL cannot fold it into a join: when the lookback spans most
 * of the chain, it hashed every swap of `events` for each slice (1.38-1.42 s a slice of 2,000
 * tokens at 1.25M actions, against 0.47-0.49 s by the index).
 */
async function swaps(tx: Tx, tokens: string[], head: Head) {
  const since = head.timestamp - WINDOWS.swapLookbackSeconds;
  const firstId = await firstEventIdAfter(tx, since, head);
  const [recent, early] = await Promise.all([
    tx.unsafe<FundedSwapRow[]>(
      `select x.* from unnest($1::text[]) k(token) cross join lateral (
         select ${SWAP_COLUMNS}, e.${ev.id} as id
           from ${EVENTS} e left join ${WALLETS} w on w.${wl.address} = e.${ev.walletAddress}
          where e.${ev.tokenAddress} = k.token and e.${ev.id} >= $4 and ${inLookback("$2", "$3")}
          order by e.${ev.id}) x
        order by x.token, x.id`,
      [tokens, since, head.number, firstId],
    ),
    tx.unsafe<FundedSwapRow[]>(
      `select x.* from ${TOKENS} t cross join lateral (
         select ${SWAP_COLUMNS}, e.${ev.id} as id
           from ${EVENTS} e left join ${WALLETS} w on w.${wl.address} = e.${ev.walletAddress}
          where e.${ev.tokenAddress} = t.${tk.address} and e.${ev.type} = 'swap' and e.${ev.direction} = 'buy'
            and e.${ev.id} >= t.${tk.createdBlock} * ${EVENT_ID_BLOCK_FACTOR}
            and e.${ev.id} < (t.${tk.createdBlock} + $2 + 1) * ${EVENT_ID_BLOCK_FACTOR}) x
        where t.${tk.address} = any($1::text[])
        order by x.token, x.id`,
      [tokens, WINDOWS.earlyMoverBlocks],
    ),
  ]);
  return {
    recent: groupInto(tokens, recent, (r) => r.token, toSwap),
    early: groupInto(tokens, early, (r) => r.token, toSwap),
  };
}

/** Funding clusters with their chain-wide size (up to one past a managed cluster's largest: clusterSizeSql). */
async function clusters(tx: Tx, ids: string[]): Promise<Map<string, ClusterFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.unsafe<{ id: string; size: number }[]>(
    `select id, ${clusterSizeSql("id")} as size from unnest($1::text[]) id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Smart-money wallets' positions. The peak balance is not stored; what the wallet bought in all
 * (or holds, if more) stands for it, exact for the usual buy-then-sell shape.
 */
async function smartMoney(tx: Tx, tokens: string[]) {
  const rows = await tx.unsafe<{ token: string; wallet: string; balance: number; bought: number }[]>(
    `select p.${wp.tokenAddress} as token, p.${wp.wallet} as wallet, p.${wp.quantity}::float8 as balance,
            coalesce((select sum(e.${ev.tokenAmount})::float8
              from ${EVENTS} e
             where e.${ev.walletAddress} = p.${wp.wallet} and e.${ev.tokenAddress} = p.${wp.tokenAddress}
                        and e.${ev.type} = 'swap' and e.${ev.direction} = 'buy'), 0) as bought
       from ${tableName(walletPositions)} p
       join ${tableName(walletScores)} s on s.${ws.address} = p.${wp.wallet} and s.${ws.classification} = 'smart_money'
      where p.${wp.tokenAddress} = any($1::text[]) order by p.${wp.tokenAddress}, p.${wp.wallet}`,
    [tokens],
  );
  return groupInto(
    tokens,
    rows,
    (r) => r.token,
    (r): SmartMoneyHolding => ({ wallet: r.wallet, balance: r.balance, peakBalance: Math.max(r.balance, r.bought) }),
  );
}

/** Rows of scoring input: what gathering and scoring a token cost. */
export const rowsOf = (i: TokenRiskInput) =>
  i.holders.length +
  i.swaps.length +
  i.earlyBuys.length +
  i.liquidityHistory.length +
  i.liquidityChanges.length +
  i.smartMoney.length;

/** A token scored once in a refresh: what scoring it again after the wallets reuses. */
export type KeptToken = {
  address: string;
  parts: TokenRiskParts;
  description: TokenDescription;
  /** Its rows of scoring input but its smart money. */
  rows: number;
};

/** A kept token to score again: its parts, and its smart money as the wallets' classifications now say. */
export type AgainToken = KeptToken & { smartMoney: SmartMoneyHolding[]; smartMoneySwaps: Swap[] };

/** Strings a kept token holds: its evidence's wallets and transactions, its top holders. */
const sizeOf = (k: KeptToken) =>
  1 +
  k.parts.reputationHolders.length +
  [k.parts.concentration.flag, k.parts.liquidity.flag, k.parts.wash.flag, k.parts.sybil].reduce(
    (n, f) => n + (f ? f.wallets.length + f.tx_hashes.length : 0),
    0,
  );

/** Strings a refresh keeps for its second scoring of tokens: a few hundred MB at most (an address is ~100 bytes). */
const KEPT_SIZE = 2_000_000;

/**
 * The risk parts of the tokens one refresh has scored, for those it scores again after its wallets.
 * The parts are what wallet classifications cannot move (tokenRiskParts), and nothing else moves
 * while no block is indexed, so a token is scored again from its smart money alone. Parts kept as
 * of another head are dropped (asOf). Holds at most `maxSize` strings (sizeOf); a token beyond
 * them is gathered again.
 */
export class KeptTokens {
  private readonly byToken = new Map<string, KeptToken>();
  private size = 0;
  private head: Head | null = null;

  constructor(private readonly maxSize = KEPT_SIZE) {}

  /** Itself as of `head`: what it kept as of another is dropped (a block was indexed in between). */
  asOf(head: Head): this {
    if (this.head && (this.head.number !== head.number || this.head.timestamp !== head.timestamp)) {
      this.byToken.clear();
      this.size = 0;
    }
    this.head = head;
    return this;
  }

  keep(kept: KeptToken) {
    const size = sizeOf(kept);
    if (this.size + size > this.maxSize || this.byToken.has(kept.address)) return;
    this.size += size;
    this.byToken.set(kept.address, kept);
  }

  /** The kept parts of those of `tokens` it holds, no longer kept. */
  take(tokens: string[]): KeptToken[] {
    return tokens.flatMap((t) => {
      const k = this.byToken.get(t);
      if (!k) return [];
      this.byToken.delete(t);
      this.size -= sizeOf(k);
      return [k];
    });
  }
}

/**
 * What scoring `tokens` needs: the whole input of those `earlier` does not hold, read in a fixed
 * number of queries, and for those it holds their smart money and its recent swaps.
 */
export async function gatherTokenInputs(
  tx: Tx,
  state: ChainState,
  tokens: string[],
  head: Head,
  earlier: KeptTokens,
): Promise<{ fresh: GatheredToken[]; again: AgainToken[] }> {
  const kept = earlier.take(tokens);
  const held = new Set(kept.map((k) => k.address));
  const fresh = await gatherAll(
    tx,
    state,
    tokens.filter((t) => !held.has(t)),
    head,
  );
  if (kept.length === 0) return { fresh, again: [] };
  const smartBy = await smartMoney(tx, [...held]);
  const swapsBy = await smartMoneySwaps(tx, smartBy, head);
  const again = kept.map((k) => ({
    ...k,
    smartMoney: smartBy.get(k.address)!,
    smartMoneySwaps: swapsBy.get(k.address) ?? [],
  }));
  return { fresh, again };
}

/** The swaps of the lookback window by each token's smart-money wallets. */
async function smartMoneySwaps(tx: Tx, smartBy: Map<string, SmartMoneyHolding[]>, head: Head) {
  const pairs = [...smartBy].flatMap(([token, holdings]) => holdings.map((h) => [token, h.wallet]));
  if (pairs.length === 0) return new Map<string, Swap[]>();
  const rows = await tx.unsafe<FundedSwapRow[]>(
    `select ${SWAP_COLUMNS} from unnest($1::text[], $2::text[]) p(token, wallet)
       join ${EVENTS} e on e.${ev.walletAddress} = p.wallet and e.${ev.tokenAddress} = p.token
       left join ${WALLETS} w on w.${wl.address} = e.${ev.walletAddress}
      where ${inLookback("$3", "$4")}
      order by ${BY_TOKEN_IN_ID_ORDER}`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1]), head.timestamp - WINDOWS.swapLookbackSeconds, head.number],
  );
  return groupInto([...smartBy.keys()], rows, (r) => r.token, toSwap);
}

/** The scoring input of every token in `tokens`, in a fixed number of queries. */
async function gatherAll(tx: Tx, state: ChainState, tokens: string[], head: Head): Promise<GatheredToken[]> {
  if (tokens.length === 0) return [];
  const [rows, holdersBy, swapsBy, smartBy, historyBy, changesBy, lockedBy] = await Promise.all([
    tokenRows(tx, tokens),
    holders(tx, state, tokens),
    swaps(tx, tokens, head),
    smartMoney(tx, tokens),
    liquidityHistories(tx, state, tokens),
    liquidityChanges(tx, tokens),
    lpLockedShares(tx, state, tokens),
  ]);
  const clusterIds = new Set<string>();
  for (const list of [...holdersBy.values(), ...swapsBy.recent.values(), ...swapsBy.early.values()])
    for (const x of list) if (x.clusterId) clusterIds.add(x.clusterId);
  const clustersById = await clusters(tx, [...clusterIds]);

  return rows.map((r) => {
    const tokenHolders = holdersBy.get(r.address)!;
    const recent = swapsBy.recent.get(r.address)!;
    const early = swapsBy.early.get(r.address)!;
    const ids = new Set([...tokenHolders, ...recent, ...early].flatMap((x) => (x.clusterId ? [x.clusterId] : [])));
    const input: TokenRiskInput = {
      token: {
        address: r.address,
        launchBlock: Number(r.launch_block),
        launchedAt: r.createdAt,
        totalSupply: Math.max(r.supply - r.burned, 0),
      },
      now: head.timestamp,
      liquidityUsd: r.liquidityUsd,
      marketCapUsd: r.marketCapUsd,
      holders: tokenHolders,
      clusters: [...ids].flatMap((id) => clustersById.get(id) ?? []),
      liquidityHistory: historyBy.get(r.address)!,
      liquidityChanges: changesBy.get(r.address)!,
      lpLockedShare: lockedBy.get(r.address) ?? null,
      swaps: recent,
      earlyBuys: early,
      smartMoney: smartBy.get(r.address)!,
    };
    const description: TokenDescription = {
      name: r.name,
      symbol: r.symbol,
      sector: r.sector as Sector,
      launchpad: r.launchpad,
      createdAt: r.createdAt,
      marketCapUsd: r.marketCapUsd,
      volume24hUsd: r.volume24hUsd,
      liquidityUsd: r.liquidityUsd,
      holderCount: r.holderCount,
      holderGrowth1hPct: r.holderGrowth1hPct,
    };
    return { input, description };
  });
}
