import { names, PREPARED, tableName } from "@/db/bulk";
import { getAuthSql } from "@/db/client";
import { accounts, apiKeys, plans, streamLeases } from "@/db/schema";
import { randomBase62 } from "@/lib/keys/secret";
import { ApiError } from "../errors";
import type { EndReason } from "./client";

/**
 * The cap on a key's concurrent event streams (plans.max_streams), across every server process:
 * each open stream holds a row of stream_leases that its process renews every RENEW_MS; a
 * process that dies leaves rows that stop counting at their expiry.
 */
export const RENEW_MS = 5_000;
const TTL = "20 seconds";

const [LEASES, KEYS, ACCOUNTS, PLANS] = [streamLeases, apiKeys, accounts, plans].map(tableName);
const l = names(streamLeases);
const k = names(apiKeys);
const a = names(accounts);
const p = names(plans);
/** The plan of key `k` (api_keys k), as `p`. */
const PLAN_OF_KEY = `join ${ACCOUNTS} a on a.${a.id} = k.${k.accountId} join ${PLANS} p on p.${p.id} = a.${a.plan}`;
/** The key's live leases ($1: its id), or (`expired`) those that ran out. */
const leasesOf = (expired: boolean) => `${l.keyId} = $1 and ${l.expiresAt} ${expired ? "<=" : ">"} now()`;

/**
 * Takes a lease for a new stream of the key, or refuses: 403 when its plan has no streams, 429
 * when it holds as many as its plan allows. The key's row is locked first, so that concurrent
 * opens of one key count each other (a statement after the lock sees what committed before).
 */
export async function openLease(keyId: string): Promise<string> {
  const id = `strm_${randomBase62(16)}`;
  const refused = await getAuthSql().begin(async (tx) => {
    const [key] = await tx.unsafe<{ max_streams: number; label: string }[]>(
      `select p.${p.maxStreams}, p.${p.label} from ${KEYS} k ${PLAN_OF_KEY}
        where k.${k.id} = $1 and k.${k.revokedAt} is null for update of k`,
      [keyId],
      PREPARED,
    );
    if (!key)
      return new ApiError("UNAUTHORIZED", "Invalid or revoked API key.", undefined, {
        "WWW-Authenticate": 'Bearer realm="v1"',
      });
    if (key.max_streams === 0) return new ApiError("FORBIDDEN", `Event streams are not part of the ${key.label} plan.`);
    await tx.unsafe(`delete from ${LEASES} where ${leasesOf(true)}`, [keyId], PREPARED);
    const [opened] = await tx.unsafe(
      `insert into ${LEASES} (${l.id}, ${l.keyId}, ${l.expiresAt})
       select $2, $1, now() + $3::interval
        where (select count(*) from ${LEASES} where ${leasesOf(false)}) < $4
       returning ${l.id}`,
      [keyId, id, TTL, key.max_streams],
      PREPARED,
    );
    if (opened) return null;
    return new ApiError(
      "RATE_LIMITED",
      `This key has ${key.max_streams} event streams open, as many as the ${key.label} plan allows at once. ` +
        "Close one first.",
    );
  });
  if (refused) throw refused;
  return id;
}

/**
 * Renews the leases of open streams (recreating one that expired while the database could not be
 * reached) and says which streams must end now: those of a key revoked (or gone) since, or whose
 * plan no longer has streams.
 */
export async function renewLeases(leases: { id: string; keyId: string }[]): Promise<Map<string, EndReason>> {
  if (leases.length === 0) return new Map();
  const rows = await getAuthSql().unsafe<{ id: string; revoked: boolean; max_streams: number }[]>(
    `with held as (
      select u.id, u.key_id, k.${k.revokedAt} is not null as revoked, p.${p.maxStreams}
        from unnest($1::text[], $2::text[]) u(id, key_id)
        join ${KEYS} k on k.${k.id} = u.key_id ${PLAN_OF_KEY}),
    renewed as (
      insert into ${LEASES} (${l.id}, ${l.keyId}, ${l.expiresAt}) select id, key_id, now() + $3::interval from held
      on conflict (${l.id}) do update set ${l.expiresAt} = excluded.${l.expiresAt})
    select id, revoked, max_streams from held`,
    [leases.map((lease) => lease.id), leases.map((lease) => lease.keyId), TTL],
    PREPARED,
  );
  const ending = new Map<string, EndReason>(leases.map((l) => [l.id, "key_revoked"]));
  for (const r of rows) {
    if (r.revoked) continue;
    if (r.max_streams === 0) ending.set(r.id, "plan");
    else ending.delete(r.id);
  }
  return ending;
}

export async function releaseLeases(ids: string[]) {
  if (ids.length > 0) await getAuthSql().unsafe(`delete from ${LEASES} where ${l.id} = any($1)`, [ids], PREPARED);
}
