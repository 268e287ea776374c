import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { sectorOf } from "@/lib/scoring/sector";
import type { RangeData } from "./fetch";
import { insertRows, isoTime, type Tx } from "./sql";
import type { ChainState } from "./state";
import type { EventRow, RangeRows } from "./transform";

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
    ],
    rows.reserves,
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
      ["block_number", "int8", (f) => f.block],
      ["tx_hash", "text", (f) => f.txHash],
    ],
    data.fundings,
    "on conflict (wallet) do nothing",
  );
  const moved = [...new Set(rows.reserves.map((r) => r.pool))].map((a) => state.pools.get(a)!);
  const lastSync = new Map(rows.reserves.map((r) => [r.pool, r.block]));
  await tx.unsafe(
    `update pools p set reserve0 = v.r0, reserve1 = v.r1, reserve_block = v.block
       from unnest($1::text[], $2::text[]::numeric[], $3::text[]::numeric[], $4::int8[]) v(address, r0, r1, block) where p.address = v.address`,
    [moved.map((p) => p.address), moved.map((p) => p.reserve0.toString()), moved.map((p) => p.reserve1.toString()), moved.map((p) => lastSync.get(p.address)!)],
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
