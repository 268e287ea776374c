import { withPublicRead } from "@/lib/auth/route";
import { marketEvents } from "@/lib/queries/market-reads";

/** The event stream for the dashboard's live lists: GET /v1/events's parameters and answer. */
export const GET = withPublicRead(async (req) => marketEvents(req.nextUrl.searchParams));
