import { readDb } from "@/db/read-replicas";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { JsonBody } from "@/lib/api/json-body";
import { eventListJsonFromSearch } from "@/lib/api/lists";

/** The global stream of on-chain events. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) =>
    cached(key.dataVersion, url.pathname + url.search, async () =>
      JsonBody.fromText(await eventListJsonFromSearch(readDb(), url.searchParams)),
    ),
  ),
});
