import { bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Sign-in emails asked for, for the throttle (lib/auth/sign-in-throttle.ts): per address and per
 * client, both as SHA-256 so the table names nobody. Rows older than the throttle's window are
 * deleted as new ones come in.
 */
export const signInRequests = pgTable(
  "sign_in_requests",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    addressHash: text().notNull(),
    clientHash: text().notNull(),
    requestedAt: createdAt(),
  },
  (t) => [
    index("sign_in_requests_address_idx").on(t.addressHash, t.requestedAt),
    index("sign_in_requests_client_idx").on(t.clientHash, t.requestedAt),
  ],
);
