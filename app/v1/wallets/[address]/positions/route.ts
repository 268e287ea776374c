import { addressRead } from "@/lib/api/address-resource";
import { positionListQuery } from "@/lib/api/schemas/wallets";
import { positionListRead } from "@/lib/queries/positions";

/** A wallet's positions, open and closed, with cost basis and PnL. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Wallet", positionListQuery, (address, q, { db }) =>
  positionListRead(db, address, q),
);
