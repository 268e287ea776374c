import { marketSearch } from "@/lib/api/market-reads";
import { withPublicRead } from "@/lib/auth/route";

/** The header's suggestions as a visitor types: GET /v1/search's parameters and answer. */
export const GET = withPublicRead(async (req) => marketSearch(req.nextUrl.searchParams));
