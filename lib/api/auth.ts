import { getAuthSql } from "@/db/client";
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

const unauthorized = (message: string) => new ApiError("UNAUTHORIZED", message, undefined, { "WWW-Authenticate": 'Bearer realm="v1"' });

/** What api_meter answers, as api_authorize and dashboard_authorize return it (all three in db/functions/metering.sql). */
type MeterRow = {
  plan: Plan;
  allowed: boolean;
  rate_limit: number;
  remaining: number;
  reset_at: string;
  retry_after: number;
  indexed_block: string | null;
  data_version: string | null;
};

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

/**
 * Authenticates the bearer key and takes one request from its limits (one database round trip,
 * on the auth pool, which slow queries cannot starve).
 */
export async function authorize(header: string | null): Promise<ApiKeyContext> {
  if (!header) throw unauthorized("Missing API key. Send the header Authorization: Bearer <API_KEY>.");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("Malformed Authorization header. Expected: Bearer <API_KEY>.");
  const secret = match[1];
  if (!isWellFormedKey(secret)) throw unauthorized("Malformed API key.");

  const [row] = await getAuthSql()<(MeterRow & { key_id: string; account_id: string })[]>`select * from api_authorize(${hashKey(secret)})`;
  if (!row) throw unauthorized("Invalid or revoked API key.");
  return { keyId: row.key_id, accountId: row.account_id, ...metered(row) };
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
