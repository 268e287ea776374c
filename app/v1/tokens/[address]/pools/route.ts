import { addressList } from "@/lib/api/address-resource";
import { poolListQuery } from "@/lib/api/schemas/market";
import { listPools } from "@/lib/queries/pools";

/** The pools that trade a token, deepest first. */
export const { GET, POST, PUT, PATCH, DELETE } = addressList("Token", poolListQuery, listPools);
