import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { sectorOf } from "@/lib/scoring/sector";
import type { RangeData } from "./fetch";
import { insertRows, isoTime, type Tx } from "./sql";
import { type ChainState, type PoolState, positionKey } from "./state";
import type { EventRow, RangeRows } from "./transform";

const ZERO = "0x0000000000000000000000000000000000000000";

/** Inserts the raw facts of a range: blocks, new tokens and pools, transfers, reserves, events, fundings. */
export async function insertRangeFacts(tx: Tx, state: ChainState, data: RangeData, rows: RangeRows) {
  const time = (block: number) => isoTime(data.blocks.get(block)!.timestamp);
  await insertRows(
    tx,
    "blocks",
    [
      ["number", "int8", (b) => b.number],
      ["hash", "text", (b) => b.hash],
      ["parent_hash", "text", (b) => b.parentHash],
      ["timestamp", "timestamptz", (b) => isoTime(b.timestamp)],
    ],
    [...data.blocks.values()].filter((b) => b.keep),
  );
  await insertRows(
    tx,
    "tokens",
    [
      ["address", "text", (t) => t.address],
      ["name", "text", (t) => t.name || t.symbol || t.address],
      ["symbol", "text", (t) => t.symbol],
      ["decimals", "int4", (t) => t.decimals],
      ["total_supply", "numeric", (t) => t.supplyBase],
      ["supply_base", "numeric", (t) => t.supplyBase],
      ["launchpad", "text", (t) => t.launchpad],
      ["sector", "text", (t) => sectorOf(t)],
      ["creator", "text", (t) => t.creator],
      ["launch_pool", "text", (t) => t.launchPool],
      ["created_block", "int8", (t) => t.createdBlock],
      ["created_tx", "text", (t) => t.createdTx],
      ["created_at", "timestamptz", (t) => time(t.createdBlock)],
    ],
    data.tokens,
  );
  await insertRows(
    tx,
    "pools",
    [
      ["address", "text", (p) => p.address],
      ["factory", "text", (p) => p.factory],
      ["dex", "text", (p) => p.dex],
      ["protocol", "text", (p) => p.protocol],
      ["fee", "int4", (p) => p.fee],
      ["tick_spacing", "int4", (p) => p.tickSpacing],
      ["token0", "text", (p) => p.token0],
      ["token1", "text", (p) => p.token1],
      ["created_block", "int8", (p) => p.createdBlock],
    ],
    data.pools,
  );
  await insertRows(
    tx,
    "token_transfers",
    [
      ["block_number", "int8", (t) => t.block],
      ["log_index", "int4", (t) => t.logIndex],
      ["token_address", "text", (t) => t.token],
      ["from_address", "text", (t) => t.from],
      ["to_address", "text", (t) => t.to],
      ["amount", "numeric", (t) => t.amount],
      ["tx_hash", "text", (t) => t.txHash],
      ["tx_from", "text", (t) => t.txFrom],
      ["kind", "text", (t) => t.kind],
      ["amount_usd", "float8", (t) => t.amountUsd],
    ],
    rows.transfers,
  );
  await insertRows(
    tx,
    "pool_reserves",
    [
      ["pool_address", "text", (r) => r.pool],
      ["block_number", "int8", (r) => r.block],
      ["log_index", "int8", (r) => r.logIndex],
      ["reserve0", "numeric", (r) => r.reserve0],
      ["reserve1", "numeric", (r) => r.reserve1],
      ["sqrt_price_x96", "numeric", (r) => (r.v3 ? r.sqrtPriceX96 : null)],
      ["tick", "int4", (r) => (r.v3 ? r.tick : null)],
      ["liquidity", "numeric", (r) => (r.v3 ? r.liquidity : null)],
    ],
    rows.reserves,
  );
  await insertRows(
    tx,
    "position_events",
    [
      ["block_number", "int8", (e) => e.block],
      ["log_index", "int4", (e) => e.logIndex],
      ["manager", "text", (e) => e.manager],
      ["token_id", "numeric", (e) => e.tokenId],
      ["pool_address", "text", (e) => e.pool],
      ["kind", "text", (e) => e.kind],
      ["liquidity_delta", "numeric", (e) => e.liquidityDelta],
      ["amount0", "numeric", (e) => e.amount0],
      ["amount1", "numeric", (e) => e.amount1],
      ["owner", "text", (e) => e.owner],
      ["tick_lower", "int4", (e) => e.tickLower],
      ["tick_upper", "int4", (e) => e.tickUpper],
      ["tx_hash", "text", (e) => e.txHash],
      ["tx_from", "text", (e) => e.txFrom],
    ],
    rows.positionEvents,
  );
  await numberAfterTombstones(tx, data.from, data.to, rows.events);
  await insertRows(
    tx,
    "events",
    [
      ["id", "int8", (e) => e.id],
      ["type", "text", (e) => e.type],
      ["wallet_address", "text", (e) => e.wallet],
      ["to_address", "text", (e) => e.to],
      ["token_address", "text", (e) => e.token],
      ["pool_address", "text", (e) => e.pool],
      ["token_amount", "numeric", (e) => e.tokenAmount],
      ["amount_usd", "float8", (e) => e.amountUsd],
      ["direction", "text", (e) => e.direction],
      ["block_number", "int8", (e) => e.block],
      ["log_index", "int4", (e) => e.logIndex],
      ["tx_hash", "text", (e) => e.txHash],
      ["timestamp", "timestamptz", (e) => isoTime(e.timestamp)],
    ],
    rows.events,
  );
  // Earlier ranges were written first, so an existing row is an earlier payment: it stays.
  await insertRows(
    tx,
    "wallet_funding",
    [
      ["wallet", "text", (f) => f.wallet],
      ["funder", "text", (f) => f.funder],
      ["value", "numeric", (f) => f.value],
      ["asset", "text", (f) => f.asset ?? null],
      ["block_number", "int8", (f) => f.block],
      ["tx_hash", "text", (f) => f.txHash],
    ],
    data.fundings,
    "on conflict (wallet) do nothing",
  );
  const moved = [...new Set(rows.reserves.map((r) => r.pool))].map((a) => state.pools.get(a)!);
  const lastSync = new Map(rows.reserves.map((r) => [r.pool, r.block]));
  const v3 = (p: PoolState, value: string) => (p.protocol === "uniswap-v3" ? value : null);
  await tx.unsafe(
    `update pools p set reserve0 = v.r0, reserve1 = v.r1, reserve_block = v.block, sqrt_price_x96 = v.sqrt, tick = v.tick, liquidity = v.liquidity
       from unnest($1::text[], $2::text[]::numeric[], $3::text[]::numeric[], $4::int8[], $5::text[]::numeric[], $6::text[]::int4[], $7::text[]::numeric[])
            v(address, r0, r1, block, sqrt, tick, liquidity) where p.address = v.address`,
    [
      moved.map((p) => p.address),
      moved.map((p) => p.reserve0.toString()),
      moved.map((p) => p.reserve1.toString()),
      moved.map((p) => lastSync.get(p.address)!),
      moved.map((p) => v3(p, p.sqrtPriceX96.toString())),
      moved.map((p) => v3(p, String(p.tick))),
      moved.map((p) => v3(p, p.liquidity.toString())),
    ],
  );
  await foldPositions(tx, [...new Set(rows.positionEvents.map((e) => positionKey(e.manager, e.tokenId)))]);
}

/**
 * lp_positions of the given positions (positionKey) from all their position_events: liquidity is
 * the sum of the signed changes, the owner the last transfer's recipient, ticks and pool from the
 * increase that created it. A position left without events (a reorg) is deleted.
 */
export async function foldPositions(tx: Tx, keys: string[]) {
  if (keys.length === 0) return;
  const managers = keys.map((k) => k.split(":")[0]);
  const ids = keys.map((k) => k.split(":")[1]);
  await tx.unsafe(
    `with k as (select * from unnest($1::text[], $2::text[]::numeric[]) k(manager, token_id)),
     folded as (
       select e.manager, e.token_id, min(e.pool_address) as pool_address,
              coalesce((array_agg(e.owner order by e.block_number desc, e.log_index desc) filter (where e.kind = 'transfer'))[1], '${ZERO}') as owner,
              min(e.tick_lower) as tick_lower, min(e.tick_upper) as tick_upper, sum(e.liquidity_delta) as liquidity,
              min(e.block_number) as created_block, max(e.block_number) as updated_block
         from position_events e join k on k.manager = e.manager and k.token_id = e.token_id group by e.manager, e.token_id),
     gone as (
       delete from lp_positions p using k where p.manager = k.manager and p.token_id = k.token_id
          and not exists (select 1 from folded f where f.manager = p.manager and f.token_id = p.token_id))
     insert into lp_positions (manager, token_id, pool_address, owner, tick_lower, tick_upper, liquidity, created_block, updated_block)
     select manager, token_id, pool_address, owner, coalesce(tick_lower, 0), coalesce(tick_upper, 0), liquidity, created_block, updated_block from folded
     on conflict (manager, token_id) do update set owner = excluded.owner, liquidity = excluded.liquidity, updated_block = excluded.updated_block`,
    [managers, ids],
  );
}

/**
 * The ids of events in blocks a reorg rolled back before: such a block numbers its events after
 * the highest id its tombstones hold, in chain order. So an id is never given twice, ids stay in
 * their block's range (block * EVENT_ID_BLOCK_FACTOR onwards: monotonic in chain order, and the
 * block-based totals and page starts of the API hold), and a consumer that read a removed event
 * receives the block's new events after it. Blocks never rolled back keep block * factor + log index.
 */
export async function numberAfterTombstones(tx: Tx, from: number, to: number, events: EventRow[]) {
  if (events.length === 0) return;
  const taken = await tx<{ block: string; last: string }[]>`
    select block_number::text as block, max(id)::text as last from event_tombstones
     where id >= ${from * EVENT_ID_BLOCK_FACTOR} and id < ${(to + 1) * EVENT_ID_BLOCK_FACTOR} group by block_number`;
  if (taken.length === 0) return;
  const next = new Map(taken.map((t) => [Number(t.block), Number(t.last) + 1]));
  for (const e of events) {
    const id = next.get(e.block);
    if (id === undefined) continue;
    if (id >= (e.block + 1) * EVENT_ID_BLOCK_FACTOR) {
      throw new Error(`block ${e.block} has no event ids left: reorgs removed ${EVENT_ID_BLOCK_FACTOR} ids' worth of its events`);
    }
    e.id = id;
    next.set(e.block, id + 1);
  }
}
