import type { NextRequest } from "next/server";
import { errorBody, toApiError } from "@/lib/api/errors";
import { SSE_HEADERS } from "@/lib/api/stream/client";
import { LiveFeed } from "@/lib/api/stream/live";
import { clientMeter } from "@/lib/auth/client-address";
import { randomBase62 } from "@/lib/keys/secret";
import { log } from "@/lib/log";

/**
 * The dashboard's live feed (lib/api/stream/live.ts): Server-Sent Events telling open pages
 * when the data moved and what it touched, so they refetch their views then instead of polling.
 * Open to anyone, as the shared views it announces are; capped per client address and per
 * process (429 past either, with Retry-After).
 */
export async function GET(req: NextRequest): Promise<Response> {
  const requestId = `req_${randomBase62(20)}`;
  try {
    const client = (await LiveFeed.get()).connect(clientMeter(req.headers));
    return new Response(client.body, { headers: { ...SSE_HEADERS, "X-Request-Id": requestId } });
  } catch (err) {
    const e = toApiError(err);
    if (e.status >= 500) log.error("live feed connection failed", { error: String(err), requestId });
    return Response.json(errorBody(e, requestId), {
      status: e.status,
      headers: { "Cache-Control": "no-store", "X-Request-Id": requestId, ...e.headers },
    });
  }
}
