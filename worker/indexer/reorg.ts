import { getTableName } from "drizzle-orm";
import { type ColumnKey, col, columnName } from "@/db/bulk";
import { CHAIN_DERIVED_TABLES, events, type eventTombstones } from "@/db/schema";
import { applyTransfers } from "../derive/balances";
import { applyPositions } from "../derive/positions";
import { linkFunders, upsertWalletActivity } from "../derive/wallets";
import type { ChainProfile } from "../profiles";
import { type BlockRef, clearCheckpoint, writeCheckpoint } from "./checkpoint";
import type { Rpc } from "./rpc";
import type { Tx } from "./sql";
import { ChainState } from "./state";
import type { TransferKind, TransferRow } from "./transform";
import { foldPositions } from "./write";

/** What a tombstone keeps of its event: the columns both tables have. */
const TOMBSTONE_COLUMNS = [
  "id",
  "type",
  "walletAddress",
  "toAddress",
  "tokenAddress",
  "blockNumber",
  "logIndex",
  "txHash",
  "timestamp",
] as const satisfies (ColumnKey<typeof events> & ColumnKey<typeof eventTombstones>)[];

/** Stored blocks compared with the node per round trip while walking back. */
const WALK_PAGE = 64;

/**
 * The highest stored block the node still has with the same hash: every block below it is
 * shared too (hashes chain). Null when no stored block survives.
 */
export async function findCommonAncestor(tx: Tx, rpc: Rpc, atOrBelow: number): Promise<BlockRef | null> {
  let cursor = atOrBelow;
  for (;;) {
    const stored = await tx<{ number: string; hash: string; time: number }[]>`
      select number, hash, extract(epoch from timestamp)::float8 as time from blocks
       where number <= ${cursor} order by number desc limit ${WALK_PAGE}`;
    if (stored.length === 0) return null;
    const onNode = await rpc.getBlocks(
      stored.map((b) => Number(b.number)),
      false,
    );
    const i = stored.findIndex((b, k) => onNode[k]?.hash === b.hash);
    if (i >= 0) return { number: Number(stored[i].number), hash: stored[i].hash, timestamp: stored[i].time };
    cursor = Number(stored[stored.length - 1].number) - 1;
  }
}

type StoredTransfer = {
  block_number: string;
  log_index: number;
  token_address: string;
  from_address: string;
  to_address: string;
  amount: string;
  tx_hash: string;
  tx_from: string | null;
  kind: TransferKind;
  amount_usd: number;
  time: number;
};

/**
 * Rolls the indexed data back to `ancestor` (null: to before the start block) in one transaction:
 * deletes every fact above it and what was created above it (events leave tombstones), then
 * recomputes what those facts fed (pool reserves and V3 price state, V3 positions, balances, supplies, holder counts and positions
 * of the tokens they touched, the activity and funders of the wallets they named) by the same
 * folds the forward sync runs.
 * Returns the state reloaded from the result; price-dependent figures are refreshed by the caller.
 */
export async function rollbackTo(tx: Tx, profile: ChainProfile, ancestor: BlockRef | null): Promise<ChainState> {
  const above = ancestor?.number ?? profile.startBlock - 1;
  const list = async (query: Promise<{ a: string }[]>) => (await query).map((r) => r.a);
  const tokens = await list(tx`select distinct token_address as a from token_transfers where block_number > ${above}`);
  const wallets = await list(tx`
    select wallet_address as a from events where block_number > ${above}
    union select to_address from events where block_number > ${above} and to_address is not null
    union select wallet from wallet_funding where block_number > ${above}`);
  const pools = await list(tx`select distinct pool_address as a from pool_reserves where block_number > ${above}`);
  const positions = await list(tx`select distinct manager || ':' || token_id::text as a from position_events where block_number > ${above}`);

  // What consumers of the stream read stays known as removed, and its ids stay taken.
  const copied = TOMBSTONE_COLUMNS.map((k) => col(events, k)).join(", ");
  await tx.unsafe(`insert into event_tombstones (${copied}) select ${copied} from events where ${col(events, "blockNumber")} > $1`, [above]);
  const deadTokens = await list(tx`select address as a from tokens where created_block > ${above}`);
  const deadPools = await list(tx`select address as a from pools where created_block > ${above}`);
  // Children first. Quarantines found above the ancestor go too: the new branch quarantines again what is still poison on it.
  for (const { table, above: block } of [...CHAIN_DERIVED_TABLES].reverse()) {
    if (block) await tx.unsafe(`delete from "${getTableName(table)}" where ${columnName(block)} > $1`, [above]);
  }
  const gone = [...deadTokens, ...deadPools];
  const rebuilt = [...new Set([...tokens, ...gone])];
  await tx`delete from token_scores where address = any(${deadTokens})`;
  await tx`delete from balances where token_address = any(${rebuilt})`;
  await tx`delete from wallet_positions where token_address = any(${rebuilt})`;
  await tx`delete from holder_count_history where token_address = any(${rebuilt})`;
  await tx`update tokens set total_supply = supply_base where address = any(${rebuilt})`;
  await tx`update pools set lp_total_supply = 0 where address = any(${rebuilt})`;
  await tx`
    update pools p set reserve0 = coalesce(r.reserve0, 0), reserve1 = coalesce(r.reserve1, 0), reserve_block = coalesce(r.block_number, 0),
                       sqrt_price_x96 = r.sqrt_price_x96, tick = r.tick, liquidity = r.liquidity
      from (select k.address, last.reserve0, last.reserve1, last.block_number, last.sqrt_price_x96, last.tick, last.liquidity
              from unnest(${pools}::text[]) k(address)
              left join lateral (select reserve0, reserve1, block_number, sqrt_price_x96, tick, liquidity from pool_reserves pr
                                  where pr.pool_address = k.address order by block_number desc, log_index desc limit 1) last on true) r
     where p.address = r.address`;
  await foldPositions(tx, positions);

  const state = await ChainState.load(tx, profile);
  const stored = await tx<StoredTransfer[]>`
    select tt.block_number, tt.log_index, tt.token_address, tt.from_address, tt.to_address, tt.amount::text, tt.tx_hash,
           tt.tx_from, tt.kind, tt.amount_usd, extract(epoch from b.timestamp)::float8 as time
      from token_transfers tt join blocks b on b.number = tt.block_number
     where tt.token_address = any(${rebuilt}) order by tt.block_number, tt.log_index`;
  const transfers: TransferRow[] = stored.map((t) => ({
    block: Number(t.block_number),
    logIndex: t.log_index,
    token: t.token_address,
    from: t.from_address,
    to: t.to_address,
    amount: BigInt(t.amount),
    txHash: t.tx_hash,
    txFrom: t.tx_from ?? "",
    kind: t.kind,
    amountUsd: t.amount_usd,
    timestamp: t.time,
  }));
  await applyTransfers(tx, state, transfers, "zero");
  await applyPositions(tx, state, transfers, "zero");
  await upsertWalletActivity(tx, profile, { wallets });
  await linkFunders(tx, wallets);
  if (ancestor) await writeCheckpoint(tx, profile.chainId, ancestor, profile.finalityDepth);
  else await clearCheckpoint(tx, profile.chainId);
  return state;
}
