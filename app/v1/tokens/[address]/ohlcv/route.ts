import { addressRead } from "@/lib/api/address-resource";
import { ohlcvQuery } from "@/lib/api/schemas/market";
import { tokenOhlcvRead } from "@/lib/queries/ohlcv";

/** USD candles of a token's price after each of its swaps and liquidity changes. */
export const { GET, POST, PUT, PATCH, DELETE } = addressRead("Token", ohlcvQuery, tokenOhlcvRead);
