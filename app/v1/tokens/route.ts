import { readDb } from "@/db/read-replicas";
import { route, withApiKey } from "@/lib/api/handler";
import { tokenListFromSearch } from "@/lib/api/lists";
import { requestTime } from "@/lib/queries/clock";

/** List and filter tokens. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) =>
    tokenListFromSearch(readDb(), url.searchParams, requestTime(), key.dataVersion),
  ),
});
