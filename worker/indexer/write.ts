import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  type InTx,
  insertRows,
  insertSql,
  names,
  PREPARED,
  pipelined,
  type Tx,
  tableName,
  updateSql,
  type Writes,
} from "@/db/bulk";
import { toQuery } from "@/db/client";
import {
  blocks,
  events,
  eventTombstones,
  firstQuotePayments,
  liquidityChanges,
  lpPositions,
  poolReserves,
  pools,
  positionEvents,
  tokens,
  tokenTransfers,
  walletFunding,
} from "@/db/schema";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { sectorOf } from "@/lib/scoring/sector";
import { type HeldReserves, reservesRows } from "../derive/pool-reserves";
import type { QuotePayment, RangeData } from "./range";
import { isoTime } from "./sql";
import { type ChainState, positionKey } from "./state";
import type { EventRow, RangeRows } from "./transform";

/**
 * Inserts a range's raw facts: blocks, new tokens, pools, transfers, reserves, liquidity changes, events, fundings.
 * `held`: a bulk load's pools' reserves, held in the process and written once (derive/pool-reserves.ts).
 */
export async function insertRangeFacts(
  tx: InTx,
  state: ChainState,
  data: RangeData,
  rows: RangeRows,
  held?: HeldReserves,
) {
  const time = (block: number) => isoTime(data.blocks.get(block)!.timestamp);
  await numberAfterTombstones(tx, data.from, data.to, rows.events);
  await pipelined(tx, async (w) => {
    await w.insert(
      blocks,
      [...data.blocks.values()]
        .filter((b) => b.keep)
        .map((b) => ({ number: b.number, hash: b.hash, parentHash: b.parentHash, timestamp: isoTime(b.timestamp) })),
    );
    await w.insert(
      tokens,
      data.tokens.map((t) => ({
        address: t.address,
        name: t.name || t.symbol || t.address,
        symbol: t.symbol,
        decimals: t.decimals,
        totalSupply: t.supplyBase,
        supplyBase: t.supplyBase,
        launchpad: t.launchpad,
        origin: t.origin,
        sector: sectorOf(t),
        creator: t.creator,
        launchPool: t.launchPool,
        createdBlock: t.createdBlock,
        createdTx: t.createdTx,
        createdAt: time(t.createdBlock),
      })),
    );
    await w.insert(
      pools,
      data.pools.map((p) => ({
        address: p.address,
        factory: p.factory,
        dex: p.dex,
        protocol: p.protocol,
        fee: p.fee,
        tickSpacing: p.tickSpacing,
        token0: p.token0,
        token1: p.token1,
        createdBlock: p.createdBlock,
      })),
    );
    await w.insert(
      tokenTransfers,
      rows.transfers.map((t) => ({
        blockNumber: t.block,
        logIndex: t.logIndex,
        tokenAddress: t.token,
        fromAddress: t.from,
        toAddress: t.to,
        amount: t.amount,
        txHash: t.txHash,
        txFrom: t.txFrom,
        kind: t.kind,
        amountUsd: t.amountUsd,
      })),
    );
    await w.insert(
      poolReserves,
      rows.reserves.map((r) => ({
        poolAddress: r.pool,
        blockNumber: r.block,
        logIndex: r.logIndex,
        reserve0: r.reserve0,
        reserve1: r.reserve1,
        sqrtPriceX96: r.v3 ? r.sqrtPriceX96 : null,
        tick: r.v3 ? r.tick : null,
        liquidity: r.v3 ? r.liquidity : null,
      })),
    );
    await w.insert(
      positionEvents,
      rows.positionEvents.map((e) => ({
        blockNumber: e.block,
        logIndex: e.logIndex,
        manager: e.manager,
        tokenId: e.tokenId,
        poolAddress: e.pool,
        kind: e.kind,
        liquidityDelta: e.liquidityDelta,
        amount0: e.amount0,
        amount1: e.amount1,
        owner: e.owner,
        tickLower: e.tickLower,
        tickUpper: e.tickUpper,
        txHash: e.txHash,
        txFrom: e.txFrom,
      })),
    );
    await w.insert(
      liquidityChanges,
      rows.liquidity.map((c) => ({
        blockNumber: c.block,
        logIndex: c.logIndex,
        txHash: c.txHash,
        wallet: c.wallet,
        poolAddress: c.pool,
        tokenAddress: c.token,
        direction: c.direction,
        units: c.units,
        quoteUsd: c.quoteUsd,
      })),
    );
    await w.insert(
      events,
      rows.events.map((e) => ({
        id: e.id,
        type: e.type,
        walletAddress: e.wallet,
        toAddress: e.to,
        tokenAddress: e.token,
        poolAddress: e.pool,
        tokenAmount: e.tokenAmount,
        quoteAmount: e.quoteAmount,
        amountUsd: e.amountUsd,
        priceUsd: e.priceUsd,
        direction: e.direction,
        blockNumber: e.block,
        logIndex: e.logIndex,
        txHash: e.txHash,
        timestamp: isoTime(e.timestamp),
      })),
    );
    // Earlier ranges were written first, so an existing row is an earlier payment: it stays.
    await w.insert(
      walletFunding,
      data.fundings.map((f) => ({
        wallet: f.wallet,
        funder: f.funder,
        value: f.value,
        asset: f.asset ?? null,
        blockNumber: f.block,
        txHash: f.txHash,
      })),
      { onConflict: { target: ["wallet"], action: "nothing" } },
    );
    const reserves = reservesRows(state, rows);
    if (held) held.stage(reserves);
    else w.update(pools, reserves, { match: ["address"] });
    foldPositions(w, [...new Set(rows.positionEvents.map((e) => positionKey(e.manager, e.tokenId)))]);
    // A token's fee sinks are a fact of its code (what its transfers do), so a reorg leaves them.
    if (rows.feeSinks.length > 0) {
      w.statement(ADD_FEE_SINKS, [rows.feeSinks.map((f) => f.token), rows.feeSinks.map((f) => f.sink)]);
    }
  });
}

const tk = names(tokens);
/** Adds the fee sinks $2[i] of the tokens $1[i]. */
const ADD_FEE_SINKS = updateSql(
  tokens,
  { feeSinks: `t.${tk.feeSinks} || s.sinks` },
  `from (select token, array_agg(distinct sink) as sinks
           from unnest($1::text[], $2::text[]) s(token, sink)
          group by token) s`,
  `t.${tk.address} = s.token`,
);

/** Keeps each recipient's first payment: earlier ranges were written first, so an existing row stays. */
export async function insertQuotePayments(tx: Tx, payments: QuotePayment[]) {
  await insertRows(
    tx,
    firstQuotePayments,
    payments.map((p) => ({
      recipient: p.recipient,
      sender: p.sender,
      asset: p.asset,
      value: p.value,
      blockNumber: p.block,
      logIndex: p.logIndex,
      txHash: p.txHash,
    })),
    { onConflict: { target: ["recipient"], action: "nothing" } },
  );
}

const ZERO = "0x0000000000000000000000000000000000000000";

const lp = names(lpPositions);
const pe = names(positionEvents);
const tomb = alias(eventTombstones, "tomb");

/** lp_positions from the `folded` rows: a position's pool and ticks stay those of its first increase. */
const WRITE_POSITIONS = insertSql(
  lpPositions,
  {
    manager: "manager",
    tokenId: "token_id",
    poolAddress: "pool_address",
    owner: "owner",
    tickLower: "coalesce(tick_lower, 0)",
    tickUpper: "coalesce(tick_upper, 0)",
    liquidity: "liquidity",
    createdBlock: "created_block",
    updatedBlock: "updated_block",
  },
  "from folded",
  { target: ["manager", "tokenId"], action: ["owner", "liquidity", "updatedBlock"] },
);

/**
 * lp_positions of the given positions (positionKey) from all their position_events: liquidity is
 * the sum of the signed changes, the owner the last transfer's recipient, ticks and pool from the
 * increase that created it. A position left without events (a reorg) is deleted.
 */
export function foldPositions(w: Writes, keys: string[]) {
  if (keys.length === 0) return;
  const managers = keys.map((k) => k.split(":")[0]);
  const ids = keys.map((k) => k.split(":")[1]);
  w.statement(
    `with k as (select * from unnest($1::text[], $2::text[]::numeric[]) k(manager, token_id)),
     folded as (
       select e.${pe.manager} as manager, e.${pe.tokenId} as token_id, min(e.${pe.poolAddress}) as pool_address,
              coalesce((array_agg(e.${pe.owner} order by e.${pe.blockNumber} desc, e.${pe.logIndex} desc)
                          filter (where e.${pe.kind} = 'transfer'))[1], '${ZERO}') as owner,
              min(e.${pe.tickLower}) as tick_lower, min(e.${pe.tickUpper}) as tick_upper,
              sum(e.${pe.liquidityDelta}) as liquidity,
              min(e.${pe.blockNumber}) as created_block, max(e.${pe.blockNumber}) as updated_block
         from ${tableName(positionEvents)} e join k on k.manager = e.${pe.manager} and k.token_id = e.${pe.tokenId}
        group by e.${pe.manager}, e.${pe.tokenId}),
     gone as (
       delete from ${tableName(lpPositions)} p using k
        where p.${lp.manager} = k.manager and p.${lp.tokenId} = k.token_id
          and not exists (select 1 from folded f where f.manager = p.${lp.manager} and f.token_id = p.${lp.tokenId}))
     ${WRITE_POSITIONS}`,
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
  const q = toQuery(sql`
    select ${tomb.blockNumber}::float8 as "blockNumber", max(${tomb.id})::float8 as id from ${eventTombstones} tomb
     where ${tomb.id} >= ${from * EVENT_ID_BLOCK_FACTOR} and ${tomb.id} < ${(to + 1) * EVENT_ID_BLOCK_FACTOR}
     group by ${tomb.blockNumber}`);
  // The last id each block's tombstones hold (ids and blocks are below 2^53: exact as float8).
  const taken = await tx.unsafe<Pick<typeof eventTombstones.$inferSelect, "blockNumber" | "id">[]>(
    q.text,
    q.params,
    PREPARED,
  );
  if (taken.length === 0) return;
  const next = new Map(taken.map((t) => [t.blockNumber, t.id + 1]));
  for (const e of events) {
    const id = next.get(e.block);
    if (id === undefined) continue;
    if (id >= (e.block + 1) * EVENT_ID_BLOCK_FACTOR) {
      throw new Error(
        `block ${e.block} has no event ids left: reorgs removed ${EVENT_ID_BLOCK_FACTOR} ids' worth of its events`,
      );
    }
    e.id = id;
    next.set(e.block, id + 1);
  }
}
