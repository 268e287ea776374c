import { addressRead } from "@/lib/api/address-resource";
import { emptyQuery } from "@/lib/api/schemas/common";
import { tokenSecurityRead } from "@/lib/queries/security";

/** A token's security checks: taxes and honeypot, owner, code, liquidity. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Token", emptyQuery, (address) =>
  tokenSecurityRead(address),
);
