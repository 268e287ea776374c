import { withPublicRead } from "@/lib/auth/route";
import { marketStatus } from "@/lib/queries/market-reads";

/** GET /v1/status for the dashboard, which polls it on every page: public and free, like /v1/status. */
export const GET = withPublicRead(async () => marketStatus());
