import type { SQL } from "drizzle-orm";
import { type Db, queryPrepared } from "@/db/client";

/**
 * A read of one indexed address: its first statement returns the address's row, none when it is
 * not indexed, and `answer` makes the response of that row (with further statements where it
 * needs them). Split so the API can run the first statement in the round trip that authorizes
 * the request (authorizeRead, lib/api/auth.ts).
 */
export type AddressRead<R, T> = {
  first: SQL;
  /** `dataVersion` is the data's version where the caller knows it (the API's reads). */
  answer: (row: R, dataVersion?: number) => T | Promise<T>;
};

/** Runs a read on its own: the answer, or null when the address is not indexed. */
export async function runRead<R, T>(db: Db, read: AddressRead<R, T>, dataVersion?: number): Promise<T | null> {
  const [row] = await queryPrepared<R>(db, read.first);
  return row ? read.answer(row, dataVersion) : null;
}
