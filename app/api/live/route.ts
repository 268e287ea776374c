import type { NextRequest } from "next/server";
import { answer } from "@/lib/api/response";
import { SSE_HEADERS } from "@/lib/api/stream/client";
import { LiveFeed } from "@/lib/api/stream/live";
import { clientMeter } from "@/lib/auth/client-address";

/**
 * The dashboard's live feed (lib/api/stream/live.ts): Server-Sent Events telling open pages
 * when the data moved and what it touched, so they refetch their views then instead of polling.
 * Open to anyone, as the shared views it announces are; capped per client address and per
 * process (429 past either, with Retry-After).
 */
export const GET = (req: NextRequest) =>
  answer(req, async () => {
    const client = (await LiveFeed.get()).connect(clientMeter(req.headers));
    return new Response(client.body, { headers: SSE_HEADERS });
  });
