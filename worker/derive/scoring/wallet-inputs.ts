import type { WalletPosition, WalletReputationInput, WalletTrade } from "@/lib/scoring";
import { CLUSTERS } from "@/lib/scoring";
import type { Tx } from "../../indexer/sql";
import type { Head } from "../metrics";

/** The wallet's recent trades the bot and wash tests read (the input's contract). */
const TRADE_LOOKBACK_SECONDS = 30 * 86_400;
export const MAX_TRADES = 2_000;
/** A position worth less than this after a sell is closed (dust left by rounding). */
const DUST_USD = 1;

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
 * evidence names it. Each test is an indexed lookup from the chunk's own wallets, so a chunk
 * costs the same on a chain with 100k tokens as on a small one.
 */
async function walletRows(tx: Tx, wallets: string[]) {
  return tx.unsafe<WalletRow[]>(
    `with washers as materialized (
       select distinct x.address from token_scores s, jsonb_array_elements(s.flag_evidence) e,
              jsonb_array_elements_text(e->'wallets') x(address)
        where 'wash_trading' = any(s.flags) and e->>'flag' = 'wash_trading' and x.address = any($1::text[]))
     select w.address, extract(epoch from w.first_seen)::float8 as first_seen, w.trade_count,
            w.portfolio_value_usd as portfolio,
            (exists (select 1 from tokens t where t.creator = w.address)
             or exists (select 1 from tokens t join wallets c on c.address = t.creator where t.creator = w.funder)
             or exists (select 1 from wallets c
                         where c.funder = w.address and exists (select 1 from tokens t where t.creator = c.address))
             or (w.cluster_id is not null
                 and exists (select 1 from wallets c
                              where c.cluster_id = w.cluster_id
                                and exists (select 1 from tokens t where t.creator = c.address))
                 and (select count(*) from wallets k where k.cluster_id = w.cluster_id) <= $2)) as linked,
            exists (select 1 from washers x where x.address = w.address) as in_wash,
            coalesce((select array_agg(t.address order by t.address)
                        from tokens t join token_scores s on s.address = t.address
                       where t.creator = w.address and 'liquidity_pulled' = any(s.flags)
                         and exists (select 1 from jsonb_array_elements(s.flag_evidence) e
                                      where e->>'flag' = 'liquidity_pulled' and e->'wallets' ? t.creator)),
                                      '{}') as pulled
       from wallets w where w.address = any($1::text[])`,
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
       select t.address as token, c.address, c.funder, c.cluster_id,
              (select count(*) from wallets k where k.cluster_id = c.cluster_id) as cluster_size
         from tokens t left join wallets c on c.address = t.creator
        where t.address in (select token_address from wallet_positions where wallet = any($1::text[])))
     select p.wallet, p.token_address as token, p.bought_usd as bought, p.sold_usd as sold,
            p.realized_pnl_usd as realized,
            p.cost_basis_usd as cost, p.quantity::float8 as quantity, p.unknown_cost_quantity::float8 as unknown,
            p.sell_count as sells,
            p.first_buy_block, t.created_block as launch_block, extract(epoch from t.created_at)::float8 as launched,
            extract(epoch from fb.timestamp)::float8 as first_buy_ts,
            extract(epoch from lb.timestamp)::float8 as last_trade_ts,
            (p.quantity / power(10::numeric, t.decimals))::float8 * coalesce(m.price_usd, 0) as value,
            coalesce('liquidity_pulled' = any(s.flags), false) as rugged, l.insider,
            case when l.insider then coalesce((select sum(e.token_amount)::float8 from events e
                                                where e.wallet_address = p.wallet and e.token_address = p.token_address
                                                  and e.type = 'swap' and e.direction = 'sell'), 0) else 0 end
              as sold_quantity,
            exists (select 1 from liquidity_stakes k
                     where k.wallet = p.wallet and k.token_address = p.token_address and k.units > 0) as in_pools
       from wallet_positions p join tokens t on t.address = p.token_address join creator c on c.token = p.token_address
       left join wallets w on w.address = p.wallet
       cross join lateral (select coalesce(c.address = w.address or c.address = w.funder or c.funder = w.address
                                           or (c.cluster_id = w.cluster_id and c.cluster_size <= $2),
                                           false) as insider) l
       left join token_metrics m on m.address = p.token_address left join token_scores s on s.address = p.token_address
       left join blocks fb on fb.number = p.first_buy_block left join blocks lb on lb.number = p.last_trade_block
      where p.wallet = any($1::text[]) order by p.wallet, p.token_address`,
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

type TradeRow = {
  wallet: string;
  token: string;
  direction: "buy" | "sell";
  amount: number;
  usd: number;
  block: string;
  ts: number;
  tx_hash: string;
};

async function trades(tx: Tx, wallets: string[], head: Head) {
  return tx.unsafe<TradeRow[]>(
    `select wallet, token, direction, amount, usd, block, ts, tx_hash from (
       select e.wallet_address as wallet, e.token_address as token, e.direction, e.token_amount::float8 as amount,
              e.amount_usd as usd,
              e.block_number as block, extract(epoch from e.timestamp)::float8 as ts, e.tx_hash,
              row_number() over (partition by e.wallet_address order by e.id desc) as n
         from events e
           where e.type = 'swap' and e.wallet_address = any($1::text[]) and e.timestamp > to_timestamp($2)) x
      where n <= $3 order by wallet, block, ts, tx_hash`,
    [wallets, head.timestamp - TRADE_LOOKBACK_SECONDS, MAX_TRADES],
  );
}

const toTrade = (r: TradeRow): WalletTrade => ({
  token: r.token,
  direction: r.direction,
  tokenAmount: r.amount,
  amountUsd: r.usd,
  block: Number(r.block),
  timestamp: r.ts,
  txHash: r.tx_hash,
});

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
  for (const t of tradeRows) byWallet.get(t.wallet)?.trades.push(toTrade(t));
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
