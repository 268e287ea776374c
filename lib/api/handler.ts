import type { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { hasReplicas, readDb, readOn, readView } from "@/db/read-replicas";
import { type AddressRead, runRead } from "@/lib/queries/read";
import { type ApiKeyContext, authorizeKey, authorizeRead, isLimited, keyHash, rateLimitHeaders } from "./auth";
import { cached, isCached } from "./cache";
import { ApiError, notFound } from "./errors";
import { answer } from "./response";

export type RequestContext<P> = { requestId: string; url: URL; params: P };
type KeyedHandler<P> = (req: NextRequest, ctx: RequestContext<P> & { key: ApiKeyContext }) => Promise<unknown>;
type PublicHandler<P> = (req: NextRequest, ctx: RequestContext<P>) => Promise<unknown>;
type RouteArgs<P> = { params: Promise<P> };
type NextHandler<P> = (req: NextRequest, args: RouteArgs<P>) => Promise<Response>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * The one wrapper of every /v1 route: authentication and rate limit (unless public) inside the
 * response core's request id, deadline, error body and headers (response.ts).
 */
function wrap<P>(
  run: (req: NextRequest, ctx: RequestContext<P>, headers: Record<string, string>) => Promise<unknown>,
): NextHandler<P> {
  return (req, args) =>
    answer(req, async ({ requestId, headers }) =>
      run(req, { requestId, url: new URL(req.url), params: args?.params ? await args.params : ({} as P) }, headers),
    );
}

/** The headers of a keyed response: its rate limit, and the indexed block its data is of. */
function keyHeaders(headers: Record<string, string>, key: ApiKeyContext) {
  Object.assign(headers, rateLimitHeaders(key.rateLimit));
  if (key.indexedBlock !== null) headers["X-Indexed-Block"] = String(key.indexedBlock);
}

/**
 * `work` of a keyed request: a GET reads from a replica when there are any (db/read-replicas.ts),
 * and its key's indexed block and data version are then the replica's own, which its header and
 * caches go by. Any other method reads and writes the primary.
 */
function keyedWork<T>(
  req: NextRequest,
  key: ApiKeyContext,
  headers: Record<string, string>,
  work: (key: ApiKeyContext) => Promise<T>,
): Promise<T> {
  if (req.method !== "GET" || !hasReplicas()) {
    keyHeaders(headers, key);
    return work(key);
  }
  return readOn(async (db) => {
    const own = db === getDb() ? key : { ...key, ...(await readView(db)) };
    keyHeaders(headers, own);
    return work(own);
  });
}

export function withApiKey<P = Record<string, never>>(handler: KeyedHandler<P>): NextHandler<P> {
  return wrap<P>(async (req, ctx, headers) => {
    const key = await authorizeKey(keyHash(req.headers.get("authorization")));
    return keyedWork(req, key, headers, (own) => handler(req, { ...ctx, key: own }));
  });
}

/** What a route of one indexed address reads: its read, its cache key, and what a 404 names. */
export type AddressReadRequest = { read: AddressRead<never, unknown>; cacheKey: string; missing: string };

/**
 * A keyed GET of one indexed address, answered from the response cache or by `prepare`'s read,
 * whose first statement runs in the round trip that authorizes the request (authorizeRead): a
 * request the cache cannot answer costs one round trip fewer. A cached answer, a request whose
 * parameters are refused (so 401 and 429 come before 400, as on every keyed route), and one of a
 * key lately over its limit, take an authorization of its own first, as does every request when
 * replicas serve the reads (the key stays on the primary).
 */
export function withAddressRead<P>(
  prepare: (req: NextRequest, ctx: RequestContext<P>) => AddressReadRequest,
): NextHandler<P> {
  return wrap<P>(async (req, ctx, headers) => {
    const hash = keyHash(req.headers.get("authorization"));
    const authorized = async () => {
      const key = await authorizeKey(hash);
      keyHeaders(headers, key);
      return key;
    };
    let r: AddressReadRequest;
    try {
      r = prepare(req, ctx);
    } catch (err) {
      await authorized();
      throw err;
    }
    const { read, cacheKey, missing } = r;
    const found = <T>(answer: T | null) => {
      if (answer === null) throw notFound(missing);
      return answer;
    };
    const readAlone = async (dataVersion: number, on = read) => found(await runRead(readDb(), on, dataVersion));
    // With replicas the key is the primary's and the read a replica's: a round trip to each.
    if (hasReplicas() || isCached(cacheKey) || isLimited(hash)) {
      const key = await authorizeKey(hash);
      return keyedWork(req, key, headers, (own) =>
        // Still a hit unless the data changed since. Prepared again where readDb is the database this request reads
        // (a replica's read binds its pool).
        cached(own.dataVersion, cacheKey, () =>
          readAlone(own.dataVersion, hasReplicas() ? prepare(req, ctx).read : read),
        ),
      );
    }
    const { key, read: wasRead, row } = await authorizeRead<never>(hash, read.first);
    keyHeaders(headers, key);
    return cached(key.dataVersion, cacheKey, async () => {
      if (!wasRead) return readAlone(key.dataVersion);
      return found(row === undefined ? null : await read.answer(row, key.dataVersion));
    });
  });
}

export function withPublic<P = Record<string, never>>(handler: PublicHandler<P>): NextHandler<P> {
  return wrap<P>((req, ctx) => handler(req, ctx));
}

/** Fills the methods a route does not serve with 405 and the error body. */
export function route<P>(handlers: Partial<Record<Method, NextHandler<P>>>): Record<Method, NextHandler<P>> {
  const allow = Object.keys(handlers).join(", ");
  const notAllowed = wrap<P>(async (req) => {
    throw new ApiError(
      "METHOD_NOT_ALLOWED",
      `Method ${req.method} is not allowed here. Allowed: ${allow}.`,
      undefined,
      {
        Allow: allow,
      },
    );
  });
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, NextHandler<P>>;
}
