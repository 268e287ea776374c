import { marketEvents } from "@/lib/api/market-reads";
import { withPublicRead } from "@/lib/auth/route";

/** The event stream for the dashboard's live lists: GET /v1/events's parameters and answer. */
export const GET = withPublicRead(async (req) => marketEvents(req.nextUrl.searchParams));
