import { readOn } from "@/db/read-replicas";
import { route, withPublic } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/params";
import { emptyQuery } from "@/lib/api/schemas/common";
import { requestTime } from "@/lib/queries/clock";
import { getStatus } from "@/lib/queries/status";

/** Data freshness: chain head, indexed block, lag, worker heartbeat. No key needed. */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withPublic(async (_req, { url }) => {
    parseQuery(url, emptyQuery);
    return readOn((db) => getStatus(db, requestTime()));
  }),
});
