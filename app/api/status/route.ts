import { getDb } from "@/db/client";
import { withLiveSession } from "@/lib/auth/route";
import { requestTime } from "@/lib/queries/clock";
import { getStatus } from "@/lib/queries/status";

/** GET /v1/status for the dashboard, which polls it on every page: free like the public one, so not metered. */
export const GET = withLiveSession(async () => getStatus(getDb(), requestTime()));
