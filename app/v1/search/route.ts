import { readDb } from "@/db/read-replicas";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/params";
import { searchQuery } from "@/lib/api/schemas/search";
import { search } from "@/lib/queries/search";

/** Tokens and wallets by the start of a symbol, name or address. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) => {
    const q = parseQuery(url, searchQuery);
    return cached(key.dataVersion, url.pathname + url.search, () => search(readDb(), q, key.dataVersion));
  }),
});
