import { addressPath, get, type PathItem } from "@/lib/api/openapi";
import { ohlcvList, ohlcvQuery } from "@/lib/api/schemas/market";

export const operations: PathItem = {
  get: get({
    summary:
      "USD candles of a token's price after each of its swaps and liquidity changes (none before its first; " +
      "quiet intervals carry the close forward)",
    description:
      "Prices in USD per whole token; volume_usd is the USD traded in the candle; " +
      "candles run up to the indexed block (X-Indexed-Block).",
    response: ohlcvList,
    params: { path: addressPath, query: ohlcvQuery },
    errors: [404],
  }),
};
