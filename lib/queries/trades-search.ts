/** Trades per page of the token page's trades list. Client components import this module: it holds no server code. */
const LIMIT = 25;

export type TradesFilter = { side: string; walletClass: string; page: number };

/**
 * The /api/events query of a token's trades list (GET /v1/events?token_address=&type=swap with
 * its side and wallet class filters); the server renders the unfiltered first page with the same one.
 */
export function tradesSearch(token: string, f: TradesFilter = { side: "", walletClass: "", page: 1 }): URLSearchParams {
  const search = new URLSearchParams({ token_address: token, type: "swap", limit: String(LIMIT) });
  if (f.side) search.set("direction", f.side);
  if (f.walletClass) search.set("wallet_classification", f.walletClass);
  if (f.page > 1) search.set("page", String(f.page));
  return search;
}
