import { addressList } from "@/lib/api/address-resource";
import { positionListQuery } from "@/lib/api/schemas/wallets";
import { listPositions } from "@/lib/queries/positions";

/** A wallet's positions, open and closed, with cost basis and PnL. */
export const { GET, POST, PUT, PATCH, DELETE } = addressList("Wallet", positionListQuery, listPositions);
