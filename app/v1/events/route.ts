import { getDb } from "@/db/client";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { eventListFromSearch } from "@/lib/queries/lists";

/** The global stream of on-chain events. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) =>
    cached(key.dataVersion, url.pathname + url.search, () => eventListFromSearch(getDb(), url.searchParams)),
  ),
});
