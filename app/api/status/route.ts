import { requestTime } from "@/lib/queries/clock";
import { getDb } from "@/db/client";
import { withSession } from "@/lib/auth/route";
import { getStatus } from "@/lib/queries/status";

export const GET = withSession(async () => getStatus(getDb(), requestTime()));
