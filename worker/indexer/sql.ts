export type { Tx } from "@/db/bulk";

/** A Unix time as an ISO string: the form bulk writes send times in (db/bulk.ts). */
export const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
