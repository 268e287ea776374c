import { addressRead } from "@/lib/api/address-resource";
import { launchListQuery } from "@/lib/api/schemas/wallets";
import { launchListRead } from "@/lib/queries/launches";

/** The tokens a wallet created, newest first, each with its outcome. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Wallet", launchListQuery, (address, q) =>
  launchListRead(address, q),
);
