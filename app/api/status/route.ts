import { requestTime } from "@/lib/queries/clock";
import { getDb } from "@/db/client";
import { withAccount } from "@/lib/auth/route";
import { getStatus } from "@/lib/queries/status";

/** GET /v1/status for the dashboard, which polls it on every page: free like the public one, so not metered. */
export const GET = withAccount(async () => getStatus(getDb(), requestTime()));
