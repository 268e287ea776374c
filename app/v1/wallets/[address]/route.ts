import { addressResource } from "@/lib/api/address-resource";
import { getWalletProfile } from "@/lib/queries/wallets";

/** A wallet's profile: portfolio, PnL estimate, reputation. */
export const { GET, POST, PUT, PATCH, DELETE } = addressResource("Wallet", (db, address, _now, dataVersion) => getWalletProfile(db, address, dataVersion));
