import { withPublicRead } from "@/lib/auth/route";
import { marketTokens } from "@/lib/queries/market-reads";

/** The token list for the explorer and the overview: GET /v1/tokens's parameters and answer. */
export const GET = withPublicRead(async (req) => marketTokens(req.nextUrl.searchParams));
