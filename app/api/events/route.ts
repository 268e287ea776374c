import { getDb } from "@/db/client";
import { withSession } from "@/lib/auth/route";
import { eventListFromSearch } from "@/lib/queries/lists";

/** The event stream for the dashboard's live lists: GET /v1/events's parameters and answer. */
export const GET = withSession(async (req) => eventListFromSearch(getDb(), req.nextUrl.searchParams));
