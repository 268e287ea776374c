import { insertSql, names, tableName, updateRows, updateSql } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { alertMatches, alerts } from "@/db/schema";
import { liveKey } from "./load";
import type { MatchDiff } from "./memory";

/**
 * An alert whose match set changed, and its new digest: with the diff from the rows it holds
 * when those are known (MatchMemory), or else its complete set, to be diffed against its rows.
 */
export type MatchChange = { alertId: string; digest: string | null } & (MatchDiff | { addresses: readonly string[] });

export type RecordResult = { inserted: number; deleted: number; cleared: number };

const CHUNK = 20_000;

const al = names(alerts);
const am = names(alertMatches);
const MATCHES = tableName(alertMatches);

/** Drops the digest and the matches of the alerts $1 that are not live. */
const CLEAR_NOT_LIVE = `with gone as (${updateSql(
  alerts,
  { matchDigest: "null" },
  "",
  `t.${al.id} = any($1::text[]) and not (t.${al.status} = 'active' and exists (select 1 from api_keys k where ${liveKey("t")}))`,
)} returning t.${al.id} as id)
  delete from ${MATCHES} m using gone where m.${am.alertId} = gone.id`;

/** The pairs ($1[i], $2[i]) of alert and token. */
const PAIRS = "unnest($1::text[], $2::text[]) u(alert_id, address)";
const DELETE_MATCHES = `delete from ${MATCHES} m using ${PAIRS} where m.${am.alertId} = u.alert_id and m.${am.tokenAddress} = u.address`;
// A row already there (rows edited by hand) must not wedge every later cycle.
const INSERT_MATCHES = insertSql(alertMatches, { alertId: "u.alert_id", tokenAddress: "u.address", matchedAt: "$3::timestamptz" }, `from ${PAIRS}`, {
  target: ["alertId", "tokenAddress"],
  action: "nothing",
});

/**
 * Makes alert_matches hold exactly the computed sets of `changed` alerts: new matches are
 * inserted (unnotified), matches that stopped matching are deleted, so such a token fires again
 * when it matches again. Alerts that are no longer live (paused, key revoked) lose their matches:
 * resuming starts afresh, and whatever matches then fires like on a new alert. One transaction,
 * so match_digest always describes the rows it sits beside.
 */
export async function recordMatches(sql: Sql, changed: MatchChange[], notLive: string[], now: Date): Promise<RecordResult> {
  return sql.begin(async (tx) => {
    // Checked again under the row lock: an alert resumed meanwhile keeps its matches.
    const cleared = notLive.length ? await tx.unsafe(CLEAR_NOT_LIVE, [notLive]) : { count: 0 };
    const result = { inserted: 0, deleted: 0, cleared: cleared.count };
    if (changed.length === 0) return result;

    // Locked so that an alert deleted meanwhile cannot break the inserts' foreign key.
    const present = await tx<{ id: string }[]>`
      select id from alerts where id = any(${changed.map((c) => c.alertId)}::text[]) for key share`;
    const live = new Set(present.map((r) => r.id));
    const applied = changed.filter((c) => live.has(c.alertId));
    const complete = applied.flatMap((c) => ("addresses" in c ? [c] : []));
    const stored = new Map<string, Set<string>>();
    const rows = complete.length
      ? await tx<{ alertId: string; address: string }[]>`
          select alert_id as "alertId", token_address as address from alert_matches
           where alert_id = any(${complete.map((c) => c.alertId)}::text[])`
      : [];
    for (const r of rows) {
      let s = stored.get(r.alertId);
      if (!s) stored.set(r.alertId, (s = new Set()));
      s.add(r.address);
    }

    const inserts: [string[], string[]] = [[], []];
    const deletes: [string[], string[]] = [[], []];
    const add = (to: [string[], string[]], alertId: string, addresses: Iterable<string>) => {
      for (const a of addresses) to[0].push(alertId), to[1].push(a);
    };
    for (const c of applied) {
      if ("addresses" in c) {
        const before = stored.get(c.alertId) ?? new Set<string>();
        const after = new Set(c.addresses);
        add(
          inserts,
          c.alertId,
          [...after].filter((a) => !before.has(a)),
        );
        add(
          deletes,
          c.alertId,
          [...before].filter((a) => !after.has(a)),
        );
      } else {
        add(inserts, c.alertId, c.inserts);
        add(deletes, c.alertId, c.deletes);
      }
    }
    for (let i = 0; i < deletes[0].length; i += CHUNK) {
      await tx.unsafe(DELETE_MATCHES, [deletes[0].slice(i, i + CHUNK), deletes[1].slice(i, i + CHUNK)]);
    }
    for (let i = 0; i < inserts[0].length; i += CHUNK) {
      await tx.unsafe(INSERT_MATCHES, [inserts[0].slice(i, i + CHUNK), inserts[1].slice(i, i + CHUNK), now.toISOString()]);
    }
    await updateRows(
      tx,
      alerts,
      applied.map((c) => ({ id: c.alertId, matchDigest: c.digest })),
      { match: ["id"] },
    );
    return { ...result, inserted: inserts[0].length, deleted: deletes[0].length };
  });
}
