import { marketTokens } from "@/lib/api/market-reads";
import { withPublicRead } from "@/lib/auth/route";

/** The token list for the explorer and the overview: GET /v1/tokens's parameters and answer. */
export const GET = withPublicRead(async (req) => marketTokens(req.nextUrl.searchParams));
