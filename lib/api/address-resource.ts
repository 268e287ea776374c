import type { z } from "zod";
import type { Db } from "@/db/client";
import { readDb } from "@/db/read-replicas";
import { requestTime } from "@/lib/queries/clock";
import type { AddressRead } from "@/lib/queries/read";
import { cached } from "./cache";
import { notFound } from "./errors";
import { route, withAddressRead, withApiKey } from "./handler";
import { parsePath, parseQuery } from "./params";
import { addressSchema, emptyQuery } from "./schemas/common";

/** A GET route for one indexed address's score: 400 if malformed, 404 if unindexed. */
export function addressResource<T>(what: "Token" | "Wallet", load: (db: Db, address: string) => Promise<T | null>) {
  return route<{ address: string }>({
    GET: withApiKey(async (_req, { url, key, params }) => {
      parseQuery(url, emptyQuery);
      const address = parsePath(params.address, addressSchema, "address");
      return cached(key.dataVersion, url.pathname, async () => {
        const resource = await load(readDb(), address);
        if (!resource) throw notFound(`${what} ${address}`);
        return resource;
      });
    }),
  });
}

/**
 * A GET of one indexed address through its read (a profile, or a list under the address such as
 * a token's holders or a wallet's positions): the query string parsed against `query`, 400 for a
 * malformed address, 404 when the read finds the address unindexed.
 */
export function addressRead<S extends z.ZodObject, R, T>(
  what: "Token" | "Wallet",
  query: S,
  read: (address: string, q: z.output<S>, on: { db: Db; now: Date }) => AddressRead<R, T>,
) {
  return route<{ address: string }>({
    GET: withAddressRead((_req, { url, params }) => {
      const q = parseQuery(url, query);
      const address = parsePath(params.address, addressSchema, "address");
      return {
        read: read(address, q, { db: readDb(), now: requestTime() }),
        cacheKey: url.pathname + url.search,
        missing: `${what} ${address}`,
      };
    }),
  });
}
