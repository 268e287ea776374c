import { addressRead } from "@/lib/api/address-resource";
import { emptyQuery } from "@/lib/api/schemas/common";
import { walletProfileRead } from "@/lib/queries/wallets";

/** A wallet's profile: portfolio, PnL estimate, reputation. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Wallet", emptyQuery, (address, _q, { db }) =>
  walletProfileRead(db, address),
);
