import { names, tableName } from "@/db/bulk";
import {
  blocks,
  events,
  liquidityStakes,
  tokenMetrics,
  tokenScores,
  tokens,
  walletPositions,
  wallets as walletsTable,
} from "@/db/schema";
import type { WalletPosition, WalletReputationInput, WalletTrade } from "@/lib/scoring";
import { CLUSTERS } from "@/lib/scoring";
import type { Tx } from "../../indexer/sql";
import type { Head } from "../metrics";
import { clusterSizeSql } from "./cluster-size";
import { SWAP_FIELDS, type SwapRow, toTrade } from "./swaps";

/** The wallet's recent trades the bot and wash tests read (the input's contract). */
const TRADE_LOOKBACK_SECONDS = 30 * 86_400;
export const MAX_TRADES = 2_000;
/** A position worth less than this after a sell is closed (dust left by rounding). */
const DUST_USD = 1;

const bk = names(blocks);
const ev = names(events);
const ls = names(liquidityStakes);
const tm = names(tokenMetrics);
const sc = names(tokenScores);
const tk = names(tokens);
const wp = names(walletPositions);
const wl = names(walletsTable);
const BLOCKS = tableName(blocks);
const EVENTS = tableName(events);
const TOKENS = tableName(tokens);
const SCORES = tableName(tokenScores);
const WALLETS = tableName(walletsTable);
const POSITIONS = tableName(walletPositions);

type WalletRow = {
  address: string;
  first_seen: number;
  trade_count: number;
  portfolio: number;
  linked: boolean;
  in_wash: boolean;
  pulled: string[];
};

/**
 * Per wallet: first seen, trades, portfolio, whether it is linked to a token creator (is one,
 * was funded by one, funded one, or shares a managed-size cluster with one), whether it is
 * named in some token's wash_trading evidence, and the tokens it created whose liquidity_pulled
 * evidence names it. A chunk's cost still grows with the chain (PostgreSQL answers the creator and
 * wash tests by reading tokens and flagged token_scores whole), so a full refresh takes few, large
 * chunks (sliced-refresh.ts); what grew with a hub's size (its cluster counted for each of its
 * wallets: 0.5 ms a wallet at 25,000 tokens) is counted once per cluster.
 */
async function walletRows(tx: Tx, wallets: string[]) {
  return tx.unsafe<WalletRow[]>(
    `with washers as materialized (
       select distinct x.address from ${SCORES} s, jsonb_array_elements(s.${sc.flagEvidence}) e,
              jsonb_array_elements_text(e->'wallets') x(address)
        where 'wash_trading' = any(s.${sc.flags}) and e->>'flag' = 'wash_trading' and x.address = any($1::text[])),
     -- Per cluster, not per wallet: a hub's wallets share one, and its size is counted once.
     creator_clusters as materialized (
       select c.id from (select distinct w.${wl.clusterId} as id from ${WALLETS} w
                          where w.${wl.address} = any($1::text[]) and w.${wl.clusterId} is not null) c
        -- The size first: a hub's wallets are not walked for a creator.
        where ${clusterSizeSql("c.id")} <= $2
          and exists (select 1 from ${WALLETS} m
                       where m.${wl.clusterId} = c.id
                         and exists (select 1 from ${TOKENS} t where t.${tk.creator} = m.${wl.address})))
     select w.${wl.address} as address, extract(epoch from w.${wl.firstSeen})::float8 as first_seen,
            w.${wl.tradeCount} as trade_count, w.${wl.portfolioValueUsd} as portfolio,
            (exists (select 1 from ${TOKENS} t where t.${tk.creator} = w.${wl.address})
             or exists (select 1 from ${TOKENS} t join ${WALLETS} c on c.${wl.address} = t.${tk.creator}
                         where t.${tk.creator} = w.${wl.funder})
             or exists (select 1 from ${WALLETS} c
                         where c.${wl.funder} = w.${wl.address}
                           and exists (select 1 from ${TOKENS} t where t.${tk.creator} = c.${wl.address}))
             or exists (select 1 from creator_clusters c where c.id = w.${wl.clusterId})) as linked,
            exists (select 1 from washers x where x.address = w.${wl.address}) as in_wash,
            coalesce((select array_agg(t.${tk.address} order by t.${tk.address})
                        from ${TOKENS} t join ${SCORES} s on s.${sc.address} = t.${tk.address}
                       where t.${tk.creator} = w.${wl.address} and 'liquidity_pulled' = any(s.${sc.flags})
                         and exists (select 1 from jsonb_array_elements(s.${sc.flagEvidence}) e
                                      where e->>'flag' = 'liquidity_pulled' and e->'wallets' ? t.${tk.creator})),
                                      '{}') as pulled
       from ${WALLETS} w where w.${wl.address} = any($1::text[])`,
    [wallets, CLUSTERS.maxManagedSize],
  );
}

type PositionRow = {
  wallet: string;
  token: string;
  bought: number;
  sold: number;
  realized: number;
  cost: number;
  quantity: number;
  unknown: number;
  sells: number;
  first_buy_block: string | null;
  launch_block: string;
  launched: number;
  first_buy_ts: number | null;
  last_trade_ts: number | null;
  value: number;
  rugged: boolean;
  insider: boolean;
  sold_quantity: number;
  in_pools: boolean;
};

/**
 * The wallet's positions with their tokens' launch and rug flag, and whether it still has
 * liquidity in the token's pools; for a token whose creator the wallet is linked to (the rule of
 * walletRows), the quantity it sold of it.
 */
async function positions(tx: Tx, wallets: string[]) {
  return tx.unsafe<PositionRow[]>(
    // A creator's cluster size is counted once per token, not once per position held in it.
    `with creator as materialized (
       select t.${tk.address} as token, c.${wl.address} as address, c.${wl.funder} as funder,
              c.${wl.clusterId} as cluster_id,
              ${clusterSizeSql(`c.${wl.clusterId}`)} as cluster_size
         from ${TOKENS} t left join ${WALLETS} c on c.${wl.address} = t.${tk.creator}
        where t.${tk.address} in (select ${wp.tokenAddress} from ${POSITIONS} where ${wp.wallet} = any($1::text[]))),
     -- The slice's stakes by the key's wallet: probed per position, PostgreSQL read them by token,
     -- a busy token's stakes for each of its holders.
     staked as materialized (
       select k.${ls.wallet} as wallet, k.${ls.tokenAddress} as token from ${tableName(liquidityStakes)} k
        where k.${ls.wallet} = any($1::text[]) and k.${ls.units} > 0)
     select p.${wp.wallet} as wallet, p.${wp.tokenAddress} as token, p.${wp.boughtUsd} as bought,
            p.${wp.soldUsd} as sold, p.${wp.realizedPnlUsd} as realized,
            p.${wp.costBasisUsd} as cost, p.${wp.quantity}::float8 as quantity,
            p.${wp.unknownCostQuantity}::float8 as unknown, p.${wp.sellCount} as sells,
            p.${wp.firstBuyBlock} as first_buy_block, t.${tk.createdBlock} as launch_block,
            extract(epoch from t.${tk.createdAt})::float8 as launched,
            extract(epoch from fb.${bk.timestamp})::float8 as first_buy_ts,
            extract(epoch from lb.${bk.timestamp})::float8 as last_trade_ts,
            (p.${wp.quantity} / power(10::numeric, t.${tk.decimals}))::float8 * coalesce(m.${tm.priceUsd}, 0) as value,
            coalesce('liquidity_pulled' = any(s.${sc.flags}), false) as rugged, l.insider,
            case when l.insider then coalesce((select sum(e.${ev.tokenAmount})::float8 from ${EVENTS} e
                                                where e.${ev.walletAddress} = p.${wp.wallet}
                                                  and e.${ev.tokenAddress} = p.${wp.tokenAddress}
                                                  and e.${ev.type} = 'swap' and e.${ev.direction} = 'sell'), 0)
                 else 0 end as sold_quantity,
            exists (select 1 from staked k where k.wallet = p.${wp.wallet} and k.token = p.${wp.tokenAddress}) as in_pools
       from ${POSITIONS} p join ${TOKENS} t on t.${tk.address} = p.${wp.tokenAddress}
       join creator c on c.token = p.${wp.tokenAddress}
       left join ${WALLETS} w on w.${wl.address} = p.${wp.wallet}
       cross join lateral (select coalesce(c.address = w.${wl.address} or c.address = w.${wl.funder}
                                           or c.funder = w.${wl.address}
                                           or (c.cluster_id = w.${wl.clusterId} and c.cluster_size <= $2),
                                           false) as insider) l
       left join ${tableName(tokenMetrics)} m on m.${tm.address} = p.${wp.tokenAddress}
       left join ${SCORES} s on s.${sc.address} = p.${wp.tokenAddress}
       left join ${BLOCKS} fb on fb.${bk.number} = p.${wp.firstBuyBlock}
       left join ${BLOCKS} lb on lb.${bk.number} = p.${wp.lastTradeBlock}
      where p.${wp.wallet} = any($1::text[]) order by p.${wp.wallet}, p.${wp.tokenAddress}`,
    [wallets, CLUSTERS.maxManagedSize],
  );
}

function toPosition(r: PositionRow): WalletPosition {
  // Liquidity still in the token's pools keeps a position open, whatever the wallet holds itself.
  const closed = !r.in_pools && (r.quantity <= 0 || (r.sells > 0 && r.value < DUST_USD));
  return {
    token: r.token,
    boughtUsd: r.bought,
    soldUsd: r.sold,
    realizedPnlUsd: r.realized,
    unrealizedPnlUsd: closed ? 0 : r.value - r.cost,
    closed,
    closedAt: closed ? r.last_trade_ts : null,
    blocksAfterLaunch: r.first_buy_block === null ? null : Number(r.first_buy_block) - Number(r.launch_block),
    secondsAfterLaunch: r.first_buy_ts === null ? null : Math.max(r.first_buy_ts - r.launched, 0),
    // Acquired quantity is not stored: the unknown-cost share of what is held stands for it.
    knownCostShare: r.quantity > 0 ? Math.max(1 - r.unknown / r.quantity, 0) : r.bought > 0 ? 1 : 0,
    tokenRugged: r.rugged,
    insider: r.insider,
    soldShare: r.sold_quantity > 0 ? r.sold_quantity / (r.sold_quantity + Math.max(r.quantity, 0)) : 0,
  };
}

/**
 * Each wallet's last MAX_TRADES swaps of the lookback, one backward walk of its own index range
 * each: a slice's cost follows its wallets' swaps, not the size of events (a window over every
 * swap of `= any(wallets)` had PostgreSQL read events whole for each slice: 1.3 s a slice of
 * 5,000 wallets at 5M actions, against 0.6 s).
 */
async function trades(tx: Tx, wallets: string[], head: Head) {
  return tx.unsafe<SwapRow[]>(
    `select x.* from (select distinct unnest($1::text[]) as address) k
     cross join lateral (
       select ${SWAP_FIELDS} from ${EVENTS} e
        where e.${ev.walletAddress} = k.address and e.${ev.type} = 'swap' and e.${ev.timestamp} > to_timestamp($2)
        order by e.${ev.id} desc limit $3) x
      order by wallet, block, ts, tx_hash`,
    [wallets, head.timestamp - TRADE_LOOKBACK_SECONDS, MAX_TRADES],
  );
}

const toWalletTrade = (r: SwapRow): WalletTrade => toTrade(r, { token: r.token });

/** The reputation input of every wallet in `wallets` that has a wallets row, in four queries. */
export async function gatherWalletInputs(tx: Tx, wallets: string[], head: Head): Promise<WalletReputationInput[]> {
  if (wallets.length === 0) return [];
  const [rows, positionRows, tradeRows] = await Promise.all([
    walletRows(tx, wallets),
    positions(tx, wallets),
    trades(tx, wallets, head),
  ]);
  const byWallet = new Map(
    rows.map((r) => [r.address, { positions: [] as PositionRow[], trades: [] as WalletTrade[] }]),
  );
  for (const p of positionRows) byWallet.get(p.wallet)?.positions.push(p);
  for (const t of tradeRows) byWallet.get(t.wallet)?.trades.push(toWalletTrade(t));
  return rows.map((r) => {
    const own = byWallet.get(r.address)!;
    return {
      address: r.address,
      now: head.timestamp,
      firstSeen: r.first_seen,
      tradeCount: r.trade_count,
      positions: own.positions.map(toPosition),
      trades: own.trades,
      linkedToCreator: r.linked,
      inWashEvidence: r.in_wash,
      pulledOwnLaunchLiquidity: r.pulled,
      portfolioValueUsd: r.portfolio,
    };
  });
}
