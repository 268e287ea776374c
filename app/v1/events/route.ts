import { getDb } from "@/db/client";
import { cached } from "@/lib/api/cache";
import { route, withApiKey } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/params";
import { eventListQuery } from "@/lib/api/schemas/events";
import { listEvents } from "@/lib/queries/events";

/** The global stream of on-chain events. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (_req, { url, key }) => {
    const q = parseQuery(url, eventListQuery);
    const list = await cached(key.dataVersion, url.pathname + url.search, () =>
      listEvents(getDb(), {
        type: q.type,
        token: q.token_address,
        wallet: q.wallet_address,
        since: q.since,
        afterId: q.after,
        order: q.order,
        page: q.page,
        limit: q.limit,
      }),
    );
    return { ...list, page: q.page, limit: q.limit };
  }),
});
