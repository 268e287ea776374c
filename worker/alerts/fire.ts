import { insertRows, names, PREPARED, type Tx, tableName, updateSql } from "@/db/bulk";
import { alerts as alertsTable, apiKeys, notifications, tokens as tokensTable } from "@/db/schema";
import { MAX_LISTED_MATCHES } from "@/lib/alerts/payload";
import {
  ALERT_COOLDOWN_MS as COOLDOWN_MS,
  explainTokenMatch,
  type PriceConditions,
} from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import { newId } from "@/lib/keys/secret";
import { type Firing, firingOf, loadTargets, notificationRow } from "./firing";
import { liveKey } from "./load";
import type { CycleToken } from "./tokens";

export { COOLDOWN_MS };

const al = names(alertsTable);
/** Fires the live alerts $2 that did not fire since $3 at $1, under their row locks; returns those. */
const LOCK_FIRINGS = `${updateSql(
  alertsTable,
  { lastTriggeredAt: "$1::timestamptz" },
  `from unnest($2::text[]) u(id), ${tableName(apiKeys)} k`,
  `t.${al.id} = u.id and ${liveKey("t")} and t.${al.status} = 'active'
   and (t.${al.lastTriggeredAt} is null or t.${al.lastTriggeredAt} <= $3::timestamptz)`,
)} returning t.${al.id} as id`;

const tk = names(tokensTable);
/** The names of the tokens $1. */
const TOKEN_NAMES = `select t.${tk.address} as address, t.${tk.name} as name, t.${tk.symbol} as symbol
  from unnest($1::text[]) u(address) join ${tableName(tokensTable)} t on t.${tk.address} = u.address`;

/** A match waiting for its alert's next firing: the token, and when it started matching. */
export type Waiting = { address: string; matchedMs: number };
/** What a due alert would announce: the matches that waited, then those that joined its set now. */
export type News = { waiting: readonly Waiting[]; joined: readonly string[] };
export type NewsByAlert = ReadonlyMap<string, News>;

/**
 * Fires the alerts of `news` (each due, with what it would announce) that are still live and off
 * cooldown under their row locks: one notification listing what newly matched since its last
 * firing and still matches (the first MAX_LISTED_MATCHES, first matched first, and the total),
 * with the values that made each token match. Runs in the cycle's transaction (recordMatches),
 * so a firing's last_triggered_at, the end of its matches' wait and its outbox row commit
 * together. `tokens` are the cycle's tokens, the matches having been computed from them.
 * Returns the alerts fired.
 */
export async function fireAlerts(tx: Tx, news: NewsByAlert, tokens: readonly CycleToken[], now: Date) {
  if (news.size === 0) return new Set<string>();
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - COOLDOWN_MS).toISOString();
  // What joined together is listed in address order: each set sorted once (alerts with equal conditions share it).
  const sorted = new Map<readonly string[], string[]>();
  const inOrder = (joined: readonly string[]) => {
    let list = sorted.get(joined);
    if (!list) sorted.set(joined, (list = [...joined].sort()));
    return list;
  };
  // The tokens that may be listed, found in one pass over the cycle's (rather than a map of them all).
  const wanted = new Set<string>();
  for (const n of news.values()) {
    for (const p of n.waiting) wanted.add(p.address);
    for (const a of inOrder(n.joined).slice(0, MAX_LISTED_MATCHES)) wanted.add(a);
  }
  const byAddress = new Map<string, CycleToken>();
  for (const t of tokens) if (wanted.has(t.address)) byAddress.set(t.address, t);

  const byAlert = new Map<string, { listed: Waiting[]; total: number }>();
  for (const [id, n] of news) {
    const waiting = n.waiting.filter((p) => byAddress.has(p.address));
    const room = Math.max(0, MAX_LISTED_MATCHES - waiting.length);
    const joined = room ? inOrder(n.joined).slice(0, room) : [];
    const joinedNow = joined.map((address) => ({ address, matchedMs: now.getTime() }));
    const listed = [...waiting.slice(0, MAX_LISTED_MATCHES), ...joinedNow];
    if (listed.length) byAlert.set(id, { listed, total: waiting.length + n.joined.length });
  }
  // Re-checked under the row lock: an alert paused since it was read does not fire.
  const locked = byAlert.size ? await tx.unsafe<{ id: string }[]>(LOCK_FIRINGS, [at, [...byAlert.keys()], cutoff]) : [];
  const fired = new Set(locked.map((r) => r.id));
  if (fired.size === 0) return fired;

  const alerts = await loadTargets(tx, [...fired]);
  const listed = [...new Set(alerts.flatMap((a) => byAlert.get(a.id)!.listed.map((p) => p.address)))];
  const names = new Map(
    (
      await tx.unsafe<Pick<typeof tokensTable.$inferSelect, "address" | "name" | "symbol">[]>(
        TOKEN_NAMES,
        [listed],
        PREPARED,
      )
    ).map((t) => [t.address, t]),
  );

  const firings: Firing[] = alerts.map((a) => {
    const { listed, total } = byAlert.get(a.id)!;
    // Token and price alerts hold matches (a price alert its one token: price.ts).
    const kind = a.kind === "price" ? "price" : "token";
    const conditions = a.conditions as TokenFilter | PriceConditions;
    return firingOf(a, {
      type: "alert.triggered",
      alert: { id: a.id, name: a.name, kind: a.kind, conditions: a.conditions },
      triggered_at: at,
      matches: listed.map((m) => ({
        address: m.address,
        name: names.get(m.address)?.name ?? "",
        symbol: names.get(m.address)?.symbol ?? "",
        matched_at: new Date(m.matchedMs).toISOString(),
        values: explainTokenMatch(kind, byAddress.get(m.address)!, conditions, now),
      })),
      total_matches: total,
    });
  });

  await insertRows(
    tx,
    notifications,
    firings.map((f) => notificationRow(f, newId("ntf"))),
  );
  return fired;
}
