import { getDb } from "@/db/client";
import { eventListFromSearch } from "@/lib/api/lists";
import { withSession } from "@/lib/auth/route";

/** The event stream for the dashboard's live lists: GET /v1/events's parameters and answer. */
export const GET = withSession(async (req) => eventListFromSearch(getDb(), req.nextUrl.searchParams));
