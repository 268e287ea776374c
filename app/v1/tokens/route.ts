import { getDb } from "@/db/client";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/params";
import { tokenListQuery } from "@/lib/api/schemas/tokens";
import { listTokens } from "@/lib/queries/tokens";
import { pickTokenFilter } from "@/lib/tokens/filter";

/** List and filter tokens. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) => {
    const q = parseQuery(url, tokenListQuery);
    const list = await cached(key.dataVersion, url.pathname + url.search, () =>
      listTokens(getDb(), { filter: pickTokenFilter(q), sort: q.sort, page: q.page, limit: q.limit }, new Date(), key.dataVersion),
    );
    return { ...list, page: q.page, limit: q.limit };
  }),
});
