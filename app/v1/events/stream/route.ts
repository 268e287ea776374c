import { keyHash } from "@/lib/api/auth";
import { route, withApiKey } from "@/lib/api/handler";
import { parsePath, parseQuery } from "@/lib/api/params";
import { eventStreamQuery, lastEventIdHeader } from "@/lib/api/schemas/events";
import { SSE_HEADERS } from "@/lib/api/stream/client";
import { StreamHub } from "@/lib/api/stream/hub";
import { openLease, releaseLeases } from "@/lib/api/stream/leases";

/** The event stream, pushed as Server-Sent Events (docs/event-stream.md). */
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(async (req, { url, key }) => {
    const q = parseQuery(url, eventStreamQuery);
    const header = req.headers.get("last-event-id")?.trim();
    const after = header ? parsePath(header, lastEventIdHeader, "Last-Event-ID") : q.after;
    const leaseId = await openLease(key.keyId);
    try {
      const hub = await StreamHub.get();
      const filter = { type: q.type, token: q.token_address, wallet: q.wallet_address };
      const client = await hub.connect(filter, after, {
        hash: keyHash(req.headers.get("authorization")),
        keyId: key.keyId,
        leaseId,
      });
      return new Response(client.body, { headers: SSE_HEADERS });
    } catch (err) {
      await releaseLeases([leaseId]);
      throw err;
    }
  }),
});
