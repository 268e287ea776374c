import type { BulkRow, InsertOptions, Tx } from "@/db/bulk";
import { insertRows, names, PREPARED, tableName, updateRows, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alertMatches, alertMatchSets, alerts, apiKeys } from "@/db/schema";
import { COOLDOWN_MS, fireAlerts, type News, type Waiting } from "./fire";
import { liveKey } from "./load";
import { type TokenKeys, unpackSet } from "./match-sets";
import type { MatchDiff } from "./memory";
import type { CycleToken } from "./tokens";

/**
 * An alert whose match set changed: its new set and digest, with the diff from the set it holds
 * when that is known (MatchMemory); without one it is diffed against its stored set. Alerts
 * sharing conditions share one `addresses` array, packed once.
 */
export type MatchChange = { alertId: string; digest: string | null; addresses: readonly string[]; diff?: MatchDiff };

/** A cycle's outcome: the alerts whose sets changed, those no longer live, its tokens, its time. */
export type CycleChanges = {
  changed: MatchChange[];
  notLive: string[];
  tokens: readonly CycleToken[];
  now: Date;
};

export type CycleWrites = {
  /** Tokens that joined or left a match set. */
  inserted: number;
  deleted: number;
  /** Alerts no longer live whose matches were dropped. */
  cleared: number;
  /** Alerts fired, one outbox notification each. */
  fired: number;
  ms: { record: number; fire: number };
};

const al = names(alerts);
const am = names(alertMatches);
const ms = names(alertMatchSets);
const MATCHES = tableName(alertMatches);
const SETS = tableName(alertMatchSets);
const ALERTS = tableName(alerts);
const KEYS = tableName(apiKeys);
const KEY_ID = names(apiKeys).id;

/** Drops the digest, the set and the waiting matches of the alerts $1 that are not live. */
const CLEAR_NOT_LIVE = `with gone as (${updateSql(
  alerts,
  { matchDigest: "null" },
  "",
  `t.${al.id} = any($1::text[])
   and not (t.${al.status} = 'active' and exists (select 1 from ${KEYS} k where ${liveKey("t")}))`,
)} returning t.${al.id} as id),
  sets as (delete from ${SETS} s using gone where s.${ms.alertId} = gone.id),
  waiting as (delete from ${MATCHES} m using gone where m.${am.alertId} = gone.id)
  select count(*)::int as n from gone`;

/** Live, and off cooldown as of $1 (the cutoff): an alert that may fire. */
const DUE = `a.${al.status} = 'active' and k.${KEY_ID} is not null
  and (a.${al.lastTriggeredAt} is null or a.${al.lastTriggeredAt} <= $1::timestamptz)`;

/**
 * The alerts $2 that still exist, locked FOR KEY SHARE until the commit (so none is deleted
 * under the rows written for it), in id order; `due` as of the cutoff $1.
 */
const LOCK_CHANGED = `
  select a.${al.id} as id, coalesce(${DUE}, false) as due
    from unnest($2::text[]) u(id) join ${ALERTS} a on a.${al.id} = u.id left join ${KEYS} k on ${liveKey("a")}
   order by a.${al.id}
     for key share of a`;

/** The waiting matches of the alerts $2 and of every due alert (cutoff $1), oldest first. */
const WAITING = `
  select m.${am.alertId} as "alertId", m.${am.tokenAddress} as address,
         (extract(epoch from m.${am.matchedAt}) * 1000)::float8 as "matchedMs", coalesce(${DUE}, false) as due
    from ${MATCHES} m join ${ALERTS} a on a.${al.id} = m.${am.alertId} left join ${KEYS} k on ${liveKey("a")}
    left join unnest($2::text[]) u(id) on u.id = m.${am.alertId}
   where u.id is not null or ${DUE}
   order by m.${am.alertId}, m.${am.matchedAt}, m.${am.tokenAddress}`;

/** Writes the sets: alert $1[i] holds the distinct set $3[$2[i]] (1-based), given as bytea text. */
const WRITE_SETS = `
  insert into ${SETS} as t (${ms.alertId}, ${ms.tokens})
  select a.id, s.tokens from unnest($1::text[], $2::int[]) a(id, set)
    join unnest($3::text[]::bytea[]) with ordinality s(tokens, n) on s.n = a.set
  on conflict (${ms.alertId}) do update set ${ms.tokens} = excluded.${ms.tokens}`;

/** The stored sets of the alerts $1. */
const STORED_SETS = `select s.${ms.alertId} as "alertId", s.${ms.tokens} as tokens
  from unnest($1::text[]) u(id) join ${SETS} s on s.${ms.alertId} = u.id`;

const DELETE_SETS = `delete from ${SETS} s using unnest($1::text[]) u(id) where s.${ms.alertId} = u.id`;

const DELETE_WAITING = `delete from ${MATCHES} m using unnest($1::text[], $2::text[]) u(alert_id, address)
  where m.${am.alertId} = u.alert_id and m.${am.tokenAddress} = u.address`;

/** A match already waiting stays as it is. */
const KEEP_WAITING: InsertOptions<typeof alertMatches, never> = {
  onConflict: { target: ["alertId", "tokenAddress"], action: "nothing" },
};

/** A firing notifies everything its alert waited with. */
const DELETE_NOTIFIED = `delete from ${MATCHES} m using unnest($1::text[]) u(id) where m.${am.alertId} = u.id`;

/**
 * One cycle's writes, in one transaction, so that match_digest always describes the set it sits
 * beside and a match stops waiting exactly when its notification is in the outbox:
 * - alerts no longer live (paused, key revoked) lose their matches: resuming starts afresh;
 * - each `changed` alert's set is replaced by its new one; its waiting matches that stopped
 *   matching are dropped (a token that leaves and comes back fires again);
 * - every due alert with something new fires (fireAlerts): what waited and what joined its set
 *   now; an alert that is not due keeps its new matches waiting.
 * Set-wise: one statement per step whatever the number of alerts and tokens, each distinct set
 * sent once. A set is written whole, so it is exactly what was computed; a diff taken from
 * MatchMemory (trusted: the digest says what the set held) only decides what is new.
 */
export async function recordMatches(sql: Sql, keys: TokenKeys, cycle: CycleChanges): Promise<CycleWrites> {
  const { changed, notLive, tokens, now } = cycle;
  const t0 = performance.now();
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - COOLDOWN_MS).toISOString();
  return sql.begin(async (tx) => {
    const cleared = notLive.length ? (await tx.unsafe<{ n: number }[]>(CLEAR_NOT_LIVE, [notLive]))[0].n : 0;
    const ids = changed.map((c) => c.alertId);
    const locked = ids.length ? await tx.unsafe<{ id: string; due: boolean }[]>(LOCK_CHANGED, [cutoff, ids]) : [];
    const due = new Map(locked.map((r) => [r.id, r.due]));
    const applied = changed.filter((c) => due.has(c.alertId)).sort((a, b) => (a.alertId < b.alertId ? -1 : 1));
    const moves = await diffSets(tx, keys, applied);

    const waiting = new Map<string, Waiting[]>();
    type Row = Waiting & { alertId: string; due: boolean };
    for (const w of await tx.unsafe<Row[]>(WAITING, [cutoff, applied.map((c) => c.alertId)])) {
      if (w.due) due.set(w.alertId, true);
      const list = waiting.get(w.alertId) ?? [];
      waiting.set(w.alertId, list);
      list.push({ address: w.address, matchedMs: w.matchedMs });
    }
    // Waiting matches that left their set go.
    const stale: [string[], string[]] = [[], []];
    const memberSets = new Map<readonly string[], Set<string>>();
    for (const c of applied) {
      const before = waiting.get(c.alertId);
      if (!before) continue;
      const left = c.diff && new Set(c.diff.deletes);
      let members = memberSets.get(c.addresses);
      if (!left && !members) memberSets.set(c.addresses, (members = new Set(c.addresses)));
      const stays = (address: string) => (left ? !left.has(address) : members!.has(address));
      for (const p of before) if (!stays(p.address)) stale[0].push(c.alertId), stale[1].push(p.address);
      waiting.set(
        c.alertId,
        before.filter((p) => stays(p.address)),
      );
    }
    // What each due alert would announce.
    const news = new Map<string, News>();
    for (const [id, list] of waiting) if (due.get(id) && list.length) news.set(id, { waiting: list, joined: [] });
    for (const [i, c] of applied.entries()) {
      const joined = moves[i].joined;
      if (due.get(c.alertId) && joined.length) news.set(c.alertId, { waiting: waiting.get(c.alertId) ?? [], joined });
    }

    const { sets, empty } = packSets(keys, applied);
    if (sets[0].length) await tx.unsafe(WRITE_SETS, sets);
    if (empty.length) await tx.unsafe(DELETE_SETS, [empty]);
    if (stale[0].length) await tx.unsafe(DELETE_WAITING, stale);
    const t1 = performance.now();

    const fired = await fireAlerts(tx, news, tokens, now);
    if (fired.size) await tx.unsafe(DELETE_NOTIFIED, [[...fired]]);
    // What joined the sets of alerts that did not fire waits for their next firing.
    const waits: BulkRow<typeof alertMatches>[] = [];
    for (const [i, c] of applied.entries()) {
      if (fired.has(c.alertId)) continue;
      for (const address of moves[i].joined) waits.push({ alertId: c.alertId, tokenAddress: address, matchedAt: at });
    }
    await insertRows(tx, alertMatches, waits, KEEP_WAITING);
    await updateRows(
      tx,
      alerts,
      applied.map((c) => ({ id: c.alertId, matchDigest: c.digest })),
      { match: ["id"] },
    );
    return {
      inserted: moves.reduce((n, m) => n + m.joined.length, 0),
      deleted: moves.reduce((n, m) => n + m.left, 0),
      cleared,
      fired: fired.size,
      ms: { record: t1 - t0, fire: performance.now() - t1 },
    };
  });
}

/** What changed in each set: the tokens that joined it and how many left. */
type SetMove = { joined: readonly string[]; left: number };

/** Each change against the set it replaces: its diff, or else the stored set (read in one statement). */
async function diffSets(tx: Tx, keys: TokenKeys, applied: MatchChange[]): Promise<SetMove[]> {
  const unknown = applied.flatMap((c) => (c.diff ? [] : [c.alertId]));
  const stored = new Map(
    unknown.length
      ? (
          await tx.unsafe<Pick<typeof alertMatchSets.$inferSelect, "alertId" | "tokens">[]>(
            STORED_SETS,
            [unknown],
            PREPARED,
          )
        ).map((r) => [r.alertId, unpackSet(r.tokens)])
      : [],
  );
  return applied.map((c) => {
    if (c.diff) return { joined: c.diff.inserts, left: c.diff.deletes.length };
    const before = stored.get(c.alertId);
    // Nothing stored (a new alert): the whole set joins, the array shared with its condition's alerts.
    if (!before) return { joined: c.addresses, left: 0 };
    const joined = c.addresses.filter((a) => !before.has(keys.of(a)));
    return { joined, left: before.size - (c.addresses.length - joined.length) };
  });
}

/** The WRITE_SETS parameters: each distinct non-empty set packed once; the alerts left without matches. */
function packSets(keys: TokenKeys, applied: MatchChange[]) {
  const index = new Map<readonly string[], number>();
  const sets: [string[], number[], string[]] = [[], [], []];
  const empty: string[] = [];
  for (const c of applied) {
    if (c.addresses.length === 0) {
      empty.push(c.alertId);
      continue;
    }
    let n = index.get(c.addresses);
    if (n === undefined) index.set(c.addresses, (n = sets[2].push(keys.pack(c.addresses))));
    sets[0].push(c.alertId);
    sets[1].push(n);
  }
  return { sets, empty };
}
