import { addressList } from "@/lib/api/address-resource";
import { holderListQuery } from "@/lib/api/schemas/market";
import { listHolders } from "@/lib/queries/holders";

/** Every real holder of a token, largest first. */
export const { GET, POST, PUT, PATCH, DELETE } = addressList("Token", holderListQuery, listHolders);
