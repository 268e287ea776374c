import { addressResource } from "@/lib/api/address-resource";
import { getWalletScore } from "@/lib/queries/scores";

/** A wallet's reputation score with its dimensions. */
export const { GET, POST, PUT, PATCH, DELETE } = addressResource("Wallet", getWalletScore);
