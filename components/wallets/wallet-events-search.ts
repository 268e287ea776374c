const LIMIT = 25;

/** The /api/events query of a wallet's history page; the server renders the same one first. */
export function walletEventsSearch(wallet: string, type: string | null, page: string | null): URLSearchParams {
  const pageNumber = page && /^[1-9]\d{0,5}$/.test(page) ? page : "1";
  return new URLSearchParams({
    wallet_address: wallet,
    limit: String(LIMIT),
    page: pageNumber,
    ...(type ? { type } : {}),
  });
}
