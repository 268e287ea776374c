import {
  type InTx,
  insertBatched,
  insertSql,
  names,
  type OnConflict,
  PREPARED,
  type Tx,
  tableName,
  updateRows,
  updateSql,
} from "@/db/bulk";
import {
  events,
  pools,
  tokenMetrics,
  tokens,
  walletFunding,
  walletPositions,
  wallets as walletsTable,
} from "@/db/schema";
import type { Sector } from "@/lib/domain/vocab";
import { preferredSector } from "@/lib/scoring/sector";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import { isoTime } from "../indexer/sql";
import type { ChainState } from "../indexer/state";
import type { EventRow } from "../indexer/transform";
import type { ChainProfile } from "../profiles";
import { knownContracts } from "../profiles/contracts";

const ev = names(events);
const pl = names(pools);
const tk = names(tokens);
const tm = names(tokenMetrics);
const wf = names(walletFunding);
const wp = names(walletPositions);
const EVENTS = tableName(events);

/**
 * Wallet activity from events: first and last seen, trade count. `scope` picks the events: a
 * block range just written (merged into the stored rows) or every event of some wallets
 * (replacing their rows after a reorg; wallets left without events are deleted). Returns the
 * wallets whose rows it created.
 */
export async function upsertWalletActivity(
  tx: Tx,
  profile: ChainProfile,
  scope: { fromBlock: number } | { wallets: string[] },
): Promise<string[]> {
  const range = "fromBlock" in scope;
  const where = range ? `e.${ev.blockNumber} >= $1` : `e.${ev.walletAddress} = any($1::text[])`;
  const whereTo = range ? `e.${ev.blockNumber} >= $1` : `e.${ev.toAddress} = any($1::text[])`;
  const contracts = knownContracts(profile).map((c) => c.address);
  const param = range ? scope.fromBlock : scope.wallets;
  // An upserted row's xmax is 0 where the statement inserted it, and the conflict's lock otherwise.
  const created = await tx.unsafe<{ address: string }[]>(
    `with upserted as (${insertSql(
      walletsTable,
      {
        address: "address",
        firstSeen: "min(ts)",
        lastSeen: "max(ts)",
        tradeCount: "sum(trade)",
        isContract: "max((address = any($3::text[]))::int)",
      },
      `from (
         select e.${ev.walletAddress} as address, e.${ev.timestamp} as ts, (e.${ev.type} = 'swap')::int as trade
           from ${EVENTS} e where ${where}
         union all
         select e.${ev.toAddress}, e.${ev.timestamp}, 0 from ${EVENTS} e
          where e.${ev.toAddress} is not null and ${whereTo}
       ) x
       where address <> all($2::text[]) ${range ? "" : "and address = any($1::text[])"}
         and not exists (select 1 from ${tableName(pools)} p where p.${pl.address} = x.address)
         and not exists (select 1 from ${tableName(tokens)} t where t.${tk.address} = x.address)
       group by address`,
      range ? MERGE_ACTIVITY : REPLACE_ACTIVITY,
    )} returning t.${w.address} as address, t.xmax = 0 as created)
     select address from upserted where created`,
    [param as never, [...BURN_ADDRESSES], contracts],
    PREPARED,
  );
  if (!range) {
    await tx.unsafe(
      `delete from ${tableName(walletsTable)} w where w.${w.address} = any($1::text[])
         and not exists (select 1 from ${EVENTS} e where e.${ev.walletAddress} = w.${w.address})
         and not exists (select 1 from ${EVENTS} e where e.${ev.toAddress} = w.${w.address})`,
      [scope.wallets],
      PREPARED,
    );
  }
  return created.map((r) => r.address);
}

const w = names(walletsTable);

/** A block range's activity merged into the stored one. */
const MERGE_ACTIVITY: OnConflict<typeof walletsTable> = {
  target: ["address"],
  action: [],
  set: {
    firstSeen: (stored, added) => `least(${stored}, ${added})`,
    lastSeen: (stored, added) => `greatest(${stored}, ${added})`,
    tradeCount: (stored, added) => `${stored} + ${added}`,
    updatedAt: () => "now()",
  },
};

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
  `from (select k.address, wf.${wf.funder} as funder from unnest($1::text[]) k(address)
     left join ${tableName(walletFunding)} wf on wf.${wf.wallet} = k.address) f`,
  `t.${w.address} = f.address`,
  { onlyChanged: true },
)} returning t.${w.funder}`;

const WALLETS = tableName(walletsTable);
/**
 * The cluster of every wallet of the funders $1 (those of the wallets $2 before and after their
 * funders were set): the funder's address once it paid two wallets or more. Of a funder's other
 * wallets, only a funder that had fewer than two besides $2 can have changed (its cluster begins
 * or ends), so a hub's thousands of wallets are read only on those terms: its wallets are counted
 * up to its own wallets in $2 (k) and two more, not to the size of $2 (every range that touches
 * a hub would read it), and otherwise only the wallets of $2 are set.
 */
const SET_CLUSTER = updateSql(
  walletsTable,
  { clusterId: "c.cluster" },
  `from (
     with f as (
       select x.funder, case when n.n >= 2 then x.funder end as cluster, n.n - coalesce(k.k, 0) < 2 as flips
         from unnest($1::text[]) x(funder)
         left join (select ${w.funder} as funder, count(*)::int as k from ${WALLETS}
                     where ${w.address} = any($2::text[]) group by ${w.funder}) k on k.funder = x.funder
         cross join lateral (select count(*)::int as n from (
                               select 1 from ${WALLETS} w where w.${w.funder} = x.funder
                                limit coalesce(k.k, 0) + 2) w) n)
     select w.${w.address} as address, f.cluster from f join ${WALLETS} w on w.${w.funder} = f.funder where f.flips
     union all
     select w.${w.address}, f.cluster from ${WALLETS} w join f on f.funder = w.${w.funder}
      where w.${w.address} = any($2::text[]) and not f.flips) c`,
  `t.${w.address} = c.address`,
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
 * `wallets` must hold every wallet whose funder may have changed.
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
  await tx.unsafe(SET_CLUSTER, [funders, wallets], PREPARED);
  await tx.unsafe(LEAVE_CLUSTER, [wallets], PREPARED);
}

/** A wallet's activity as its row holds it: first and last seen (Unix seconds) and its trades. */
type Activity = { first: number; last: number; trades: number };

/**
 * A bulk load's wallet activity and funders' links (derive/held.ts), held in the process and
 * written once when its backfill ends: a range's activity upsert (about 12,000 wallets a late
 * range of the 25,000-token fixture) and its links were a quarter of a backfill's statement time,
 * and nothing in a backfill reads the wallets but quote-token funding, which asks whether a wallet
 * was seen before its range (`seen`). Each range's events are folded as its upsert would merge
 * them (upsertWalletActivity: the wallets of that range's state, least and greatest times, trades
 * summed), and every wallet created or paid is linked once, as the ranges' links would leave it.
 */
export class HeldWallets {
  private readonly activity = new Map<string, Activity>();
  /** The wallets the held ranges paid (their funders may be set though they were not created). */
  private readonly paid = new Set<string>();
  private staged: { activity: Map<string, Activity>; paid: string[] } | null = null;

  /** Whether a held range's activity would have created the wallet's row. */
  seen(wallet: string): boolean {
    return this.activity.has(wallet);
  }

  /** A range's events folded as its activity upsert would take them, and the wallets it paid. */
  stage(state: ChainState, events: Pick<EventRow, "type" | "wallet" | "to" | "timestamp">[], paid: string[]) {
    const activity = new Map<string, Activity>();
    const see = (address: string, at: number, trades: number) => {
      if (!isWalletAddress(state, address)) return;
      const a = activity.get(address);
      if (!a) activity.set(address, { first: at, last: at, trades });
      else merge(a, at, at, trades);
    };
    for (const e of events) {
      see(e.wallet, e.timestamp, e.type === "swap" ? 1 : 0);
      if (e.to) see(e.to, e.timestamp, 0);
    }
    this.staged = { activity, paid };
  }

  keep() {
    if (!this.staged) return;
    for (const [wallet, a] of this.staged.activity) {
      const held = this.activity.get(wallet);
      if (held) merge(held, a.first, a.last, a.trades);
      else this.activity.set(wallet, a);
    }
    for (const wallet of this.staged.paid) this.paid.add(wallet);
    this.staged = null;
  }

  drop() {
    this.staged = null;
  }

  /** Inserts every held wallet's row (the table holds none yet), then links every wallet created or paid. */
  async write(tx: InTx, profile: ChainProfile) {
    const contracts = new Set(knownContracts(profile).map((c) => c.address));
    // In the primary key's order, as HeldBalances.write says why.
    const addresses = [...this.activity.keys()].sort();
    await insertBatched(tx, walletsTable, addresses, (address) => {
      const a = this.activity.get(address)!;
      return {
        address,
        firstSeen: isoTime(a.first),
        lastSeen: isoTime(a.last),
        tradeCount: a.trades,
        isContract: Number(contracts.has(address)),
      };
    });
    await linkFunders(tx, [...new Set([...this.activity.keys(), ...this.paid])]);
  }
}

/** MERGE_ACTIVITY's rule, in the process (by fields: a range's fold calls it per event, with no object to allocate). */
function merge(into: Activity, first: number, last: number, trades: number) {
  if (first < into.first) into.first = first;
  if (last > into.last) into.last = last;
  into.trades += trades;
}

/** What the activity upsert takes for a wallet: not a burn address, a pool or a token (quarantined ones too). */
const isWalletAddress = (state: ChainState, address: string) =>
  !(BURN_ADDRESSES as readonly string[]).includes(address) &&
  !state.pools.has(address) &&
  !state.tokens.has(address) &&
  !state.quarantined.has(address);

/**
 * Price-dependent wallet figures from positions and token prices: portfolio value, PnL confidence
 * and sector preference. (The PnL itself is valued when read, from the positions, at the prices
 * the positions list reads: lib/queries/wallets.ts.) Sums run over numeric so the result does not
 * depend on row order.
 */
export async function refreshWalletValues(tx: Tx, wallets: string[]) {
  if (wallets.length === 0) return;
  type Row = { wallet: string; sector: Sector; volume: number; value: number; unknown_value: number; buys: number };
  const rows = await tx.unsafe<Row[]>(
    `with pos as (
       select p.${wp.wallet} as wallet, t.${tk.sector} as sector,
              (p.${wp.boughtUsd} + p.${wp.soldUsd})::numeric as volume, p.${wp.buyCount} as buy_count,
              ((greatest(p.${wp.quantity}, 0) / power(10::numeric, t.${tk.decimals}))::float8
                * coalesce(m.${tm.priceUsd}, 0))::numeric as value,
              ((p.${wp.unknownCostQuantity} / power(10::numeric, t.${tk.decimals}))::float8
                * coalesce(m.${tm.priceUsd}, 0))::numeric as unknown_value
         from ${tableName(walletPositions)} p join ${tableName(tokens)} t on t.${tk.address} = p.${wp.tokenAddress}
         left join ${tableName(tokenMetrics)} m on m.${tm.address} = p.${wp.tokenAddress}
        where p.${wp.wallet} = any($1::text[]))
     select wallet, sector, sum(volume)::float8 as volume, sum(sum(value)) over w ::float8 as value,
            sum(sum(unknown_value)) over w ::float8 as unknown_value, (sum(sum(buy_count)) over w)::int as buys
       from pos group by wallet, sector window w as (partition by wallet)`,
    [wallets],
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
