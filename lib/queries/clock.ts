import { sql } from "drizzle-orm";
import { syncState } from "@/db/schema";

/**
 * The two "nows" of a read. Windows over chain data (a pool's 24 h volume, a chart's range) end at
 * the indexed head's time, so a read agrees with what the worker derived from the same blocks, at
 * any hour. Only fields the spec defines against the present (age_hours, worker liveness, the
 * usage days of a plan) take the request's time, and only from requestTime().
 */
export const requestTime = (): Date => new Date();

/** The indexed head's timestamp, as SQL evaluated inside the query that uses it. */
export const indexedTimeSql = sql`(select max(${syncState.indexedBlockTime}) from ${syncState})`;
