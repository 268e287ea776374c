import { addressRead } from "@/lib/api/address-resource";
import { poolListQuery } from "@/lib/api/schemas/market";
import { poolListRead } from "@/lib/queries/pools";

/** The pools that trade a token, deepest first. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Token", poolListQuery, poolListRead);
