import type postgres from "postgres";
import { DEAD_ADDRESS, ZERO_ADDRESS } from "./ids";

/**
 * The consistency rules of a loaded dataset, each as a query counting the rows that break it:
 * a correct load answers 0 everywhere. Shared by the tests of both write paths.
 */
export const INVARIANTS = {
  "balances sum to total_supply per token": `
    select count(*) from tokens t
      left join (select token_address, sum(amount) s from balances group by 1) b on b.token_address = t.address
     where coalesce(b.s, 0) <> t.total_supply`,
  "balances equal the token_transfers sums": `
    with f as (
      select token_address, holder, sum(a) s from (
        select token_address, to_address holder, amount a from token_transfers
        union all select token_address, from_address, -amount from token_transfers) x
       where holder <> '${ZERO_ADDRESS}' group by 1, 2)
    select count(*) from f full join balances b using (token_address, holder) where coalesce(f.s, 0) <> coalesce(b.amount, 0)`,
  "position quantity equals balance": `
    select count(*) from wallet_positions p
      left join balances b on b.token_address = p.token_address and b.holder = p.wallet
     where p.quantity <> coalesce(b.amount, 0)`,
  "every wallet balance has a position": `
    select count(*) from balances b join wallets w on w.address = b.holder
      left join wallet_positions p on p.wallet = b.holder and p.token_address = b.token_address
     where p.wallet is null`,
  "unknown cost quantity within quantity": `select count(*) from wallet_positions where unknown_cost_quantity > quantity or unknown_cost_quantity < 0`,
  "swap events match their token_transfers leg": `
    select count(*) from events e where e.type = 'swap' and not exists (
      select 1 from token_transfers t
       where t.tx_hash = e.tx_hash and t.token_address = e.token_address and t.amount = e.token_amount
         and ((e.direction = 'buy' and t.from_address = e.pool_address and t.to_address = e.wallet_address)
           or (e.direction = 'sell' and t.to_address = e.pool_address and t.from_address = e.wallet_address)))`,
  "transfer events are token_transfers between non-pool addresses": `
    select count(*) from events e where e.type = 'transfer' and (e.direction is not null or e.pool_address is not null or not exists (
      select 1 from token_transfers t
       where t.block_number = e.block_number and t.log_index = e.log_index and t.from_address = e.wallet_address
         and t.to_address = e.to_address and t.amount = e.token_amount))`,
  "every token_transfer is an event or part of one": `
    select count(*) from token_transfers t
     where t.from_address <> '${ZERO_ADDRESS}' and not exists (select 1 from events e where e.tx_hash = t.tx_hash)`,
  "direction is buy/sell exactly for swaps": `
    select count(*) from events
     where (type = 'swap') <> (direction is not null) or (direction is not null and direction not in ('buy', 'sell'))`,
  "event ids encode block and log index": `select count(*) from events where id <> block_number * 100000 + log_index`,
  "event timestamps are their block's": `
    select count(*) from events e left join blocks b on b.number = e.block_number where b.timestamp is distinct from e.timestamp`,
  "every referenced block exists": `
    select count(*) from (select block_number from events union select block_number from token_transfers
                          union select block_number from pool_reserves) x
      left join blocks b on b.number = x.block_number where b.number is null`,
  "block times increase with numbers": `
    select count(*) from (select timestamp, lag(timestamp) over (order by number) prev from blocks) x where timestamp <= prev`,
  "pool reserves equal the latest reserves row": `
    select count(*) from pools p join lateral (
      select reserve0, reserve1 from pool_reserves r where r.pool_address = p.address
       order by block_number desc, log_index desc limit 1) r on true
     where r.reserve0 <> p.reserve0 or r.reserve1 <> p.reserve1`,
  "pool token balance equals its reserve": `
    select count(*) from pools p join balances b on b.holder = p.address
     where b.amount <> case when b.token_address = p.token0 then p.reserve0 else p.reserve1 end`,
  "token_metrics mirrors token_scores risk": `
    select count(*) from tokens t left join token_metrics m using (address) left join token_scores s using (address)
     where m.risk_score is distinct from s.risk_score or m.risk_flags is distinct from s.flags`,
  "risk_level matches risk_score": `
    select count(*) from token_scores where risk_level <> case when risk_score < 25 then 'low' when risk_score < 50 then 'medium'
                                                              when risk_score < 75 then 'high' else 'critical' end`,
  "holder_count matches balances": `
    select count(*) from token_metrics m left join (
      select b.token_address, count(*) n from balances b
       where b.amount > 0 and b.holder not in ('${ZERO_ADDRESS}', '${DEAD_ADDRESS}') and b.holder <> b.token_address
         and not exists (select 1 from pools p where p.address = b.holder)
       group by 1) h on h.token_address = m.address
     where m.holder_count <> coalesce(h.n, 0)`,
  "latest holder_count_history equals holder_count": `
    select count(*) from token_metrics m join lateral (
      select holder_count from holder_count_history h where h.token_address = m.address order by at desc limit 1) h on true
     where h.holder_count <> m.holder_count`,
  "volume_24h is the last day's swap volume": `
    select count(*) from token_metrics m left join (
      select token_address, sum(amount_usd) v from events
       where type = 'swap' and timestamp > (select heartbeat_at from sync_state) - interval '24 hours' group by 1) e
        on e.token_address = m.address
     where abs(m.volume_24h_usd - coalesce(e.v, 0)) > 0.01 + 1e-6 * m.volume_24h_usd`,
  "liquidity_usd is the pool's": `
    select count(*) from token_metrics m join pools p on p.address = m.priced_pool where abs(m.liquidity_usd - p.liquidity_usd) > 0.01`,
  "wallet trade_count is its swap count": `
    select count(*) from wallets w left join (select wallet_address, count(*) n from events where type = 'swap' group by 1) e
        on e.wallet_address = w.address
     where w.trade_count <> coalesce(e.n, 0)`,
  "every event wallet is a wallet row": `
    select count(*) from (select wallet_address a from events union select to_address from events
                           where to_address is not null and to_address <> '${DEAD_ADDRESS}') x
     where not exists (select 1 from wallets w where w.address = x.a)`,
  "wallet first/last seen span its events": `
    select count(*) from wallets w join (
      select a, min(timestamp) f, max(timestamp) l from (
        select wallet_address a, timestamp from events union all select to_address, timestamp from events where to_address is not null) x
       group by 1) e on e.a = w.address
     where w.first_seen <> e.f or w.last_seen <> e.l`,
  "wallet_scores agree with wallets": `
    select count(*) from wallets w full join wallet_scores s using (address)
     where s.classification is distinct from w.classification or s.trade_count is distinct from w.trade_count`,
  "flag evidence names real wallets and transactions": `
    select count(*) from token_scores s, jsonb_array_elements(s.flag_evidence) e
     where not (e->>'flag' = any(s.flags))
        or exists (select 1 from jsonb_array_elements_text(e->'wallets') w where not exists (select 1 from wallets x where x.address = w))
        or exists (select 1 from jsonb_array_elements_text(e->'tx_hashes') h where not exists (select 1 from events x where x.tx_hash = h))
        or jsonb_array_length(e->'wallets') = 0`,
  "every raised flag has evidence": `
    select count(*) from token_scores s, unnest(s.flags) f
     where not exists (select 1 from jsonb_array_elements(s.flag_evidence) e where e->>'flag' = f)`,
  "liquidity_pulled means one removal took most of the pool": `
    select count(*) from token_scores s join tokens t using (address)
     where 'liquidity_pulled' = any(s.flags) and not exists (
       select 1 from events e where e.token_address = t.address and e.type = 'liquidity_remove'
         and e.tx_hash = any(array(select jsonb_array_elements_text(x->'tx_hashes') from jsonb_array_elements(s.flag_evidence) x
                                   where x->>'flag' = 'liquidity_pulled')))`,
  "sync_state is the last block": `
    select count(*) from sync_state s where s.chain_id <> 31337 or s.indexed_block <> (select max(number) from blocks)
        or s.head_block <> s.indexed_block or s.data_version <> 1
        or s.indexed_block_hash <> (select hash from blocks where number = s.indexed_block)`,
  "event_counts agree with events": `
    select count(*) from (select 'all' scope, count(*) n from events union all
                          select 'type:' || type, count(*) from events group by type) x
      left join event_counts c using (scope) where c.count is distinct from x.n`,
  "event_cumulative_counts agree with events": `
    select count(*) from (
      select scope, block_number, n, sum(n) over (partition by scope order by block_number) as cum
        from (select s.scope, e.block_number, count(*) as n
                from events e cross join lateral (values ('all'), ('type:' || e.type)) s(scope) group by 1, 2) x
    ) x full join event_cumulative_counts c using (scope, block_number)
     where c.count is distinct from x.n or c.cum is distinct from x.cum`,
} as const;

export type InvariantReport = Record<keyof typeof INVARIANTS, number>;

export async function checkInvariants(sql: postgres.Sql): Promise<InvariantReport> {
  const report = {} as InvariantReport;
  for (const [name, query] of Object.entries(INVARIANTS) as [keyof typeof INVARIANTS, string][]) {
    const [{ count }] = await sql.unsafe<{ count: string }[]>(query);
    report[name] = Number(count);
  }
  return report;
}

/** A digest of every dataset table's content, independent of physical row order. */
export async function datasetDigest(sql: postgres.Sql, tables: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const [{ md5 }] = await sql.unsafe<{ md5: string }[]>(
      `select md5(coalesce(string_agg(r, E'\\n' order by r), '')) as md5 from (select x::text as r from "${t}" x) s`,
    );
    out[t] = md5;
  }
  return out;
}
