import type { z } from "zod";
import { type Db, getDb } from "@/db/client";
import { requestTime } from "@/lib/queries/clock";
import { cached } from "./cache";
import { notFound } from "./errors";
import { route, withApiKey } from "./handler";
import { parsePath, parseQuery } from "./params";
import { addressSchema, emptyQuery } from "./schemas/common";

/** A GET route for one indexed address (token, wallet, score): 400 if malformed, 404 if unindexed. */
export function addressResource<T>(what: "Token" | "Wallet", load: (db: Db, address: string, now: Date, dataVersion: number) => Promise<T | null>) {
  return route<{ address: string }>({
    GET: withApiKey(async (_req, { url, key, params }) => {
      parseQuery(url, emptyQuery);
      const address = parsePath(params.address, addressSchema, "address");
      return cached(key.dataVersion, url.pathname, async () => {
        const resource = await load(getDb(), address, requestTime(), key.dataVersion);
        if (!resource) throw notFound(`${what} ${address}`);
        return resource;
      });
    }),
  });
}

/**
 * A GET list under one indexed address (a token's holders, a wallet's positions): the query
 * string parsed against `query`, 400 for a malformed address, 404 when `load` finds the address
 * unindexed (null).
 */
export function addressList<S extends z.ZodObject, T>(
  what: "Token" | "Wallet",
  query: S,
  load: (db: Db, address: string, q: z.output<S>, dataVersion: number) => Promise<T | null>,
) {
  return route<{ address: string }>({
    GET: withApiKey(async (_req, { url, key, params }) => {
      const q = parseQuery(url, query);
      const address = parsePath(params.address, addressSchema, "address");
      return cached(key.dataVersion, url.pathname + url.search, async () => {
        const list = await load(getDb(), address, q, key.dataVersion);
        if (!list) throw notFound(`${what} ${address}`);
        return list;
      });
    }),
  });
}
