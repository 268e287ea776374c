import { insertSql, names, type OnConflict, PREPARED, type Tx, tableName, updateRows, updateSql } from "@/db/bulk";
import { pools, tokens, wallets as walletsTable } from "@/db/schema";
import type { Sector } from "@/lib/domain/vocab";
import { preferredSector } from "@/lib/scoring/sector";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { EventRow } from "../indexer/transform";
import type { ChainProfile } from "../profiles";
import { knownContracts } from "../profiles/contracts";

/** A range's activity merged into the stored one. */
const MERGE_ACTIVITY_SET: OnConflict<typeof walletsTable>["set"] = {
  firstSeen: (stored, added) => `least(${stored}, ${added})`,
  lastSeen: (stored, added) => `greatest(${stored}, ${added})`,
  tradeCount: (stored, added) => `${stored} + ${added}`,
  updatedAt: () => "now()",
};

/** Addresses that are no wallet: burn addresses ($2), pools and tokens. `address` names the candidate. */
const IS_WALLET = (address: string) => `${address} <> all($2::text[])
         and not exists (select 1 from ${tableName(pools)} p where p.${names(pools).address} = ${address})
         and not exists (select 1 from ${tableName(tokens)} t where t.${names(tokens).address} = ${address})`;

/** A range's activity ($1 addresses with $4 first and $5 last seen, in Unix seconds, and $6 trades), merged into the stored one. */
const MERGE_RANGE_ACTIVITY = insertSql(
  walletsTable,
  {
    address: "x.address",
    firstSeen: "to_timestamp(x.first)",
    lastSeen: "to_timestamp(x.last)",
    tradeCount: "x.trades",
    isContract: "(x.address = any($3::text[]))::int",
  },
  `from unnest($1::text[], $4::bigint[], $5::bigint[], $6::int[]) x(address, first, last, trades)
   where ${IS_WALLET("x.address")}`,
  { target: ["address"], action: [], set: MERGE_ACTIVITY_SET },
);

/**
 * Wallet activity from events: first and last seen, trade count (swaps it made), for the wallet
 * that made each event and the one it went to. `scope`: the events of a range just written (the
 * range's events are at hand: merged into the stored rows without reading them back), or every
 * stored event of some wallets (replacing their rows after a reorg; wallets left without events
 * are deleted).
 */
export async function upsertWalletActivity(
  tx: Tx,
  profile: ChainProfile,
  scope: { events: EventRow[] } | { wallets: string[] },
) {
  const contracts = knownContracts(profile).map((c) => c.address);
  if ("events" in scope) {
    const seen = new Map<string, { first: number; last: number; trades: number }>();
    const see = (address: string, at: number, trade: number) => {
      const s = seen.get(address);
      if (!s) seen.set(address, { first: at, last: at, trades: trade });
      else [s.first, s.last, s.trades] = [Math.min(s.first, at), Math.max(s.last, at), s.trades + trade];
    };
    for (const e of scope.events) {
      see(e.wallet, e.timestamp, e.type === "swap" ? 1 : 0);
      if (e.to !== null) see(e.to, e.timestamp, 0);
    }
    if (seen.size === 0) return;
    const rows = [...seen];
    await tx.unsafe(
      MERGE_RANGE_ACTIVITY,
      [
        rows.map(([a]) => a),
        [...BURN_ADDRESSES],
        contracts,
        rows.map(([, s]) => s.first),
        rows.map(([, s]) => s.last),
        rows.map(([, s]) => s.trades),
      ],
      PREPARED,
    );
    return;
  }
  await tx.unsafe(
    insertSql(
      walletsTable,
      {
        address: "address",
        firstSeen: "min(ts)",
        lastSeen: "max(ts)",
        tradeCount: "sum(trade)",
        isContract: "max((address = any($3::text[]))::int)",
      },
      `from (
         select e.wallet_address as address, e.timestamp as ts, (e.type = 'swap')::int as trade
           from events e where e.wallet_address = any($1::text[])
         union all
         select e.to_address, e.timestamp, 0 from events e where e.to_address = any($1::text[])
       ) x
       where ${IS_WALLET("address")} and address = any($1::text[])
       group by address`,
      REPLACE_ACTIVITY,
    ),
    [scope.wallets, [...BURN_ADDRESSES], contracts],
    PREPARED,
  );
  await tx.unsafe(
    `delete from ${tableName(walletsTable)} w where w.${w.address} = any($1::text[])
       and not exists (select 1 from events e where e.wallet_address = w.${w.address})
       and not exists (select 1 from events e where e.to_address = w.${w.address})`,
    [scope.wallets],
    PREPARED,
  );
}

const w = names(walletsTable);

/** Activity from every event of a wallet replacing the stored one. */
const REPLACE_ACTIVITY: OnConflict<typeof walletsTable> = {
  target: ["address"],
  action: ["firstSeen", "lastSeen", "tradeCount"],
  set: { updatedAt: () => "now()" },
};

/** Sets wallets.funder from wallet_funding ($1 the wallets), returning the funders set. */
const SET_FUNDER = `${updateSql(
  walletsTable,
  { funder: "f.funder" },
  `from (select k.address, wf.funder from unnest($1::text[]) k(address)
     left join wallet_funding wf on wf.wallet = k.address) f`,
  `t.${w.address} = f.address`,
  { onlyChanged: true },
)} returning t.${w.funder}`;

/** The cluster of every wallet of the funders $1: the funder's address once it paid two wallets or more. */
const SET_CLUSTER = updateSql(
  walletsTable,
  { clusterId: "c.cluster" },
  `from (select ${w.funder} as funder, case when count(*) >= 2 then ${w.funder} end as cluster
           from ${tableName(walletsTable)} where ${w.funder} = any($1::text[]) group by ${w.funder}) c`,
  `t.${w.funder} = c.funder`,
  { onlyChanged: true },
);

/** A wallet of $1 that lost its funder (a reorg) leaves its old cluster. */
const LEAVE_CLUSTER = updateSql(
  walletsTable,
  { clusterId: "null" },
  "",
  `t.${w.address} = any($1::text[]) and t.${w.funder} is null and t.${w.clusterId} is not null`,
);

/**
 * wallets.funder from wallet_funding, and cluster_id for every funder involved: the wallets one
 * funder paid first share its address as cluster id, once there are at least two of them.
 */
export async function linkFunders(tx: Tx, wallets: string[]) {
  if (wallets.length === 0) return;
  const before = await tx.unsafe<{ funder: string }[]>(
    `select distinct ${w.funder} as funder
       from ${tableName(walletsTable)} where ${w.address} = any($1::text[]) and ${w.funder} is not null`,
    [wallets],
    PREPARED,
  );
  const after = await tx.unsafe<{ funder: string }[]>(SET_FUNDER, [wallets], PREPARED);
  const funders = [...new Set([...before, ...after].map((r) => r.funder).filter(Boolean))];
  if (funders.length === 0) return;
  await tx.unsafe(SET_CLUSTER, [funders], PREPARED);
  await tx.unsafe(LEAVE_CLUSTER, [wallets], PREPARED);
}

/**
 * Price-dependent wallet figures from positions and token prices: portfolio value, PnL confidence
 * and sector preference. (The PnL itself is valued when read, from the positions, at the prices
 * the positions list reads: lib/queries/wallets.ts.) Sums run over numeric so the result does not
 * depend on row order.
 */
export async function refreshWalletValues(tx: Tx, wallets: string[] | "all") {
  if (wallets !== "all" && wallets.length === 0) return;
  const scope = wallets === "all" ? "" : "where p.wallet = any($1::text[])";
  type Row = { wallet: string; sector: Sector; volume: number; value: number; unknown_value: number; buys: number };
  const rows = await tx.unsafe<Row[]>(
    `with pos as (
       select p.wallet, t.sector, (p.bought_usd + p.sold_usd)::numeric as volume, p.buy_count,
              ((greatest(p.quantity, 0) / power(10::numeric, t.decimals))::float8
                * coalesce(m.price_usd, 0))::numeric as value,
              ((p.unknown_cost_quantity / power(10::numeric, t.decimals))::float8
                * coalesce(m.price_usd, 0))::numeric as unknown_value
         from wallet_positions p join tokens t on t.address = p.token_address
         left join token_metrics m on m.address = p.token_address ${scope})
     select wallet, sector, sum(volume)::float8 as volume, sum(sum(value)) over w ::float8 as value,
            sum(sum(unknown_value)) over w ::float8 as unknown_value, (sum(sum(buy_count)) over w)::int as buys
       from pos group by wallet, sector window w as (partition by wallet)`,
    wallets === "all" ? [] : [wallets],
  );
  type Figures = { value: number; unknownValue: number; buys: number; volumes: Partial<Record<Sector, number>> };
  const byWallet = new Map<string, Figures>();
  for (const r of rows) {
    const f = byWallet.get(r.wallet) ?? { value: r.value, unknownValue: r.unknown_value, buys: r.buys, volumes: {} };
    f.volumes[r.sector] = r.volume;
    byWallet.set(r.wallet, f);
  }
  await updateRows(
    tx,
    walletsTable,
    [...byWallet].map(([address, f]) => ({
      address,
      portfolioValueUsd: f.value,
      pnlConfidence: pnlConfidence(f),
      sectorPreference: preferredSector(f.volumes),
    })),
    { match: ["address"], onlyChanged: true, set: { updatedAt: () => "now()" } },
  );
}

/**
 * How much of a PnL estimate rests on known costs: none without a single buy; lower as tokens of
 * unknown cost (transfers in, airdrops) make up more of what the wallet holds.
 */
export function pnlConfidence(f: { buys: number; value: number; unknownValue: number }): "low" | "medium" | "high" {
  if (f.buys === 0) return "low";
  const unknownShare = f.value > 0 ? f.unknownValue / f.value : 0;
  return unknownShare > 0.5 ? "low" : unknownShare > 0.1 ? "medium" : "high";
}
