import { addressRead } from "@/lib/api/address-resource";
import { holderListQuery } from "@/lib/api/schemas/market";
import { holderListRead } from "@/lib/queries/holders";

/** Every real holder of a token, largest first. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Token", holderListQuery, holderListRead);
