import { readDb } from "@/db/read-replicas";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { tokenListFromSearch } from "@/lib/api/lists";
import { requestTime } from "@/lib/queries/clock";

/** List and filter tokens. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) =>
    cached(key.dataVersion, url.pathname + url.search, () =>
      tokenListFromSearch(readDb(), url.searchParams, requestTime(), key.dataVersion),
    ),
  ),
});
