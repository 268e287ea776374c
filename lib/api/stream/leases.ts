import { getAuthSql } from "@/db/client";
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

/**
 * Takes a lease for a new stream of the key, or refuses: 403 when its plan has no streams, 429
 * when it holds as many as its plan allows. The key's row is locked first, so that concurrent
 * opens of one key count each other (a statement after the lock sees what committed before).
 */
export async function openLease(keyId: string): Promise<string> {
  const id = `strm_${randomBase62(16)}`;
  const refused = await getAuthSql().begin(async (tx) => {
    const [key] = await tx<{ max_streams: number; label: string }[]>`
      select p.max_streams, p.label from api_keys k join accounts a on a.id = k.account_id join plans p on p.id = a.plan
       where k.id = ${keyId} and k.revoked_at is null for update of k`;
    if (!key)
      return new ApiError("UNAUTHORIZED", "Invalid or revoked API key.", undefined, {
        "WWW-Authenticate": 'Bearer realm="v1"',
      });
    if (key.max_streams === 0) return new ApiError("FORBIDDEN", `Event streams are not part of the ${key.label} plan.`);
    await tx`delete from stream_leases where key_id = ${keyId} and expires_at <= now()`;
    const [opened] = await tx`
      insert into stream_leases (id, key_id, expires_at)
      select ${id}, ${keyId}, now() + ${TTL}::interval
       where (select count(*) from stream_leases where key_id = ${keyId} and expires_at > now()) < ${key.max_streams}
      returning id`;
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
  const rows = await getAuthSql()<{ id: string; revoked: boolean; max_streams: number }[]>`
    with held as (
      select u.id, u.key_id, k.revoked_at is not null as revoked, p.max_streams
        from unnest(${leases.map((l) => l.id)}::text[], ${leases.map((l) => l.keyId)}::text[]) u(id, key_id)
        join api_keys k on k.id = u.key_id join accounts a on a.id = k.account_id join plans p on p.id = a.plan),
    renewed as (
      insert into stream_leases (id, key_id, expires_at) select id, key_id, now() + ${TTL}::interval from held
      on conflict (id) do update set expires_at = excluded.expires_at)
    select id, revoked, max_streams from held`;
  const ending = new Map<string, EndReason>(leases.map((l) => [l.id, "key_revoked"]));
  for (const r of rows) {
    if (r.revoked) continue;
    if (r.max_streams === 0) ending.set(r.id, "plan");
    else ending.delete(r.id);
  }
  return ending;
}

export async function releaseLeases(ids: string[]) {
  if (ids.length > 0) await getAuthSql()`delete from stream_leases where id = any(${ids})`;
}
