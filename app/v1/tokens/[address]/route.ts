import { addressRead } from "@/lib/api/address-resource";
import { emptyQuery } from "@/lib/api/schemas/common";
import { tokenProfileRead } from "@/lib/queries/tokens";

/** A token's profile with its top holders. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Token", emptyQuery, (address, _q, { now }) =>
  tokenProfileRead(address, now),
);
