import { marketStatus } from "@/lib/api/market-reads";
import { withPublicRead } from "@/lib/auth/route";

/** GET /v1/status for the dashboard, which polls it on every page: public and free, like /v1/status. */
export const GET = withPublicRead(async () => marketStatus());
