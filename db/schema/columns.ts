import { bigint, doublePrecision, numeric, text, timestamp } from "drizzle-orm/pg-core";

/** Shared column builders so every table spells a type the same way. */
export const address = () => text();
/** Raw on-chain integer amounts (uint256) kept exact. */
export const uint256 = () => numeric({ precision: 78, scale: 0 });
export const blockNumber = () => bigint({ mode: "number" });
export const usd = () => doublePrecision();
export const score = () => doublePrecision();
export const ts = () => timestamp({ withTimezone: true, mode: "date" });
export const createdAt = () => ts().notNull().defaultNow();
