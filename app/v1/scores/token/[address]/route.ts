import { addressResource } from "@/lib/api/address-resource";
import { getTokenScore } from "@/lib/queries/scores";

/** A token's risk score with its dimensions, flags and their evidence. */
export const { GET, POST, PUT, PATCH, DELETE } = addressResource("Token", getTokenScore);
