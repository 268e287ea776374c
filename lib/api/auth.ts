import { type SQL, sql } from "drizzle-orm";
import { getAuthSql, getDb, queryPrepared } from "@/db/client";
import { syncState } from "@/db/schema";
import { statement } from "@/db/statement";
import { processCache } from "@/lib/cache";
import type { Plan } from "@/lib/domain/vocab";
import { hashKey, isWellFormedKey } from "@/lib/keys/secret";
import { ApiError } from "./errors";

export type RateLimitState = { limit: number; remaining: number; resetAt: number; retryAfter: number };
export type ApiKeyContext = {
  keyId: string;
  accountId: string;
  plan: Plan;
  rateLimit: RateLimitState;
  indexedBlock: number | null;
  /** Changes whenever chain-derived data changes; read caches key on it. */
  dataVersion: number;
};

/** A live key beyond its account's cap on keys (after a downgrade): lib/keys/store.ts, applyKeyCap. */
const KEY_DISABLED =
  "This API key is disabled: the account's plan allows fewer live keys than it holds, and this is one of the newest. " +
  "Revoke an older key, or change plan, to enable it.";
const unauthorized = (message: string) =>
  new ApiError("UNAUTHORIZED", message, undefined, { "WWW-Authenticate": 'Bearer realm="v1"' });

/**
 * What api_meter answers, as api_authorize and dashboard_authorize return it (all three in
 * db/functions/metering.sql). Bigints are text as columns, numbers as JSON (authorizeRead).
 */
type MeterRow = {
  plan: Plan;
  allowed: boolean;
  rate_limit: number;
  remaining: number;
  reset_at: string | number;
  retry_after: number;
  indexed_block: string | number | null;
  data_version: string | number | null;
};
type KeyRow = MeterRow & { key_id: string; account_id: string; disabled: boolean };

export type MeteredContext = Pick<ApiKeyContext, "plan" | "rateLimit" | "indexedBlock" | "dataVersion">;

/** The request's metering as a context, or 429 when it is over a limit. */
function metered(row: MeterRow): MeteredContext {
  const rateLimit: RateLimitState = {
    limit: row.rate_limit,
    remaining: row.remaining,
    resetAt: Number(row.reset_at),
    retryAfter: row.retry_after,
  };
  if (!row.allowed) {
    throw new ApiError("RATE_LIMITED", `Rate limit exceeded. Retry after ${row.retry_after} s.`, undefined, {
      ...rateLimitHeaders(rateLimit),
      "Retry-After": String(row.retry_after),
    });
  }
  return {
    plan: row.plan,
    rateLimit,
    indexedBlock: row.indexed_block === null ? null : Number(row.indexed_block),
    dataVersion: Number(row.data_version ?? 0),
  };
}

/** The SHA-256 of the request's bearer key; 401 when there is none or it is malformed. */
export function keyHash(header: string | null): string {
  if (!header) throw unauthorized("Missing API key. Send the header Authorization: Bearer <API_KEY>.");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("Malformed Authorization header. Expected: Bearer <API_KEY>.");
  const secret = match[1];
  if (!isWellFormedKey(secret)) throw unauthorized("Malformed API key.");
  return hashKey(secret);
}

/**
 * Keys this process answered 429 lately, until their retry time: their requests authorize on
 * their own, so a key over its limit does not make reads run that it will not get
 * (authorizeRead). Bounded; the oldest go first.
 */
const limited = processCache<string, true>({ name: "limitedKeys", max: 10_000 });

export const isLimited = (hash: string): boolean => limited.has(hash);

/** The key's context from api_authorize's row: 401 without one, 403 for a disabled key, 429 when it is over a limit. */
function keyContext(hash: string, row: KeyRow | undefined | null): ApiKeyContext {
  if (!row) throw unauthorized("Invalid or revoked API key.");
  if (row.disabled) throw new ApiError("FORBIDDEN", KEY_DISABLED);
  limited.delete(hash);
  if (!row.allowed) limited.set(hash, true, row.retry_after * 1000);
  return { keyId: row.key_id, accountId: row.account_id, ...metered(row) };
}

/**
 * Authenticates the key of `hash` and takes one request from its limits (one database round
 * trip, on the auth pool, which slow queries cannot starve).
 */
export async function authorizeKey(hash: string): Promise<ApiKeyContext> {
  const [row] = await getAuthSql()<KeyRow[]>`select * from api_authorize(${hash})`;
  return keyContext(hash, row);
}

/**
 * A read's first statement with the key's authorization, in one round trip (the statement has
 * to wait for a connection of the queries' pool, which a round trip of its own on the auth pool
 * would not). The statement runs first, and only for a live key; api_authorize meters the
 * request last, so the metering rows stay locked no longer than in a statement of their own. The
 * data version is read in the statement's snapshot, the row's, where api_authorize's own reads
 * see a later one.
 */
const authorizedRead = statement<"hash" | "first">(
  (
    v,
  ) => sql`with gate as materialized (select exists (select from api_key_limits(${v.hash}) where not disabled) as open),
      data as materialized (select true as read_found, t.* from (${v.first}) t where (select open from gate)),
      meter as materialized (select * from api_authorize(${v.hash}) where (select count(*) from data) >= 0)
    select (select row_to_json(m) from (
              select meter.key_id, meter.account_id, meter.plan, meter.allowed, meter.rate_limit, meter.remaining,
                     meter.reset_at,
                     meter.retry_after, meter.disabled, s.indexed_block, s.data_version
                from meter left join (select ${syncState.indexedBlock}, ${syncState.dataVersion} from ${syncState}
                            order by ${syncState.chainId} limit 1) s
                  on true) m) as read_meter,
           (select open from gate) as read_open, data.*
      from (select) one left join data on (select allowed from meter)`,
);

/**
 * Authorizes the request and runs `first` in one round trip: the key's context (or 401, 429),
 * and `first`'s row when it was read. `read` is false when the statement did not run, since the
 * key was made between the two: the caller reads on its own then.
 */
export async function authorizeRead<R>(
  hash: string,
  first: SQL,
): Promise<{ key: ApiKeyContext; read: boolean; row: R | undefined }> {
  const [r] = await queryPrepared<R & { read_meter: KeyRow | null; read_open: boolean; read_found: boolean | null }>(
    getDb(),
    authorizedRead({ hash, first }),
  );
  const key = keyContext(hash, r.read_meter);
  return { key, read: r.read_open, row: r.read_found ? r : undefined };
}

/**
 * Takes one request of the dashboard's market routes: from the signed-in user's account and its
 * plan's limits, as its keys are metered; with no user, from the client address and the Free
 * plan's limits. One database round trip, as for a key.
 */
export async function authorizeDashboard(userId: string | null, client: string): Promise<MeteredContext> {
  const [row] = await getAuthSql()<MeterRow[]>`select * from dashboard_authorize(${userId}, ${client})`;
  return metered(row);
}

export function rateLimitHeaders(r: RateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(r.resetAt),
  };
}
