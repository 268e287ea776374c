import { getDb } from "@/db/client";
import { tokenListFromSearch } from "@/lib/api/lists";
import { withSession } from "@/lib/auth/route";
import { requestTime } from "@/lib/queries/clock";

/** The token list for the explorer and the overview: GET /v1/tokens's parameters and answer. */
export const GET = withSession(async (req) => tokenListFromSearch(getDb(), req.nextUrl.searchParams, requestTime()));
