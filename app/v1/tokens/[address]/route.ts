import { addressResource } from "@/lib/api/address-resource";
import { getTokenProfile } from "@/lib/queries/tokens";

/** A token's profile with its top holders. */
export const { GET, POST, PUT, PATCH, DELETE } = addressResource("Token", getTokenProfile);
