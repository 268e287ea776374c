/** The descriptions of the OpenAPI operations (lib/api/openapi.ts): what their numbers mean. */

const AS_OF = "Figures are as of the indexed block (X-Indexed-Block)";
const MARKET =
  `${AS_OF}: USD amounts in US dollars, 24 h and 1 h windows ending at that block, changes in percent, ` +
  "risk_score 0 to 100 (higher is riskier).";
const EVENTS =
  "amount_usd is the event's USD value at its time; confirmed is relative to the indexed block (X-Indexed-Block).";

/** What an operation's numbers mean (units, windows, the block they are as of), keyed "METHOD /path". */
export const OPERATION_NUMBERS: Record<string, string> = {
  "GET /tokens": `${MARKET} age_hours is the age at the request's time.`,
  "GET /tokens/{address}":
    `${MARKET} top_holders' holding_pct is percent of the total supply; security as ` +
    "GET /tokens/{address}/security.",
  "GET /tokens/{address}/ohlcv":
    "Prices in USD per whole token; volume_usd is the USD traded in the candle; " +
    "candles run up to the indexed block (X-Indexed-Block).",
  "GET /tokens/{address}/holders": `${AS_OF}: holding_pct is percent of the total supply, reputation_score 0 to 100.`,
  "GET /tokens/{address}/pools": `${AS_OF}: liquidity and volume in USD, over the 24 h ending at that block.`,
  "GET /tokens/{address}/security":
    "Taxes and liquidity shares in percent; each check's block and checked_at say when the worker ran it " +
    "(the checks follow the indexed block by a pass of the worker, and a staleness bound of 300 blocks).",
  "GET /search": `${AS_OF}: a token's price, liquidity and 24 h volume in USD, as on the token.`,
  "GET /wallets/{address}":
    `${AS_OF}: USD at the tokens' current prices; pnl_estimate_usd is realized plus unrealized ` +
    "over every position; reputation_score 0 to 100 (higher is better).",
  "GET /wallets/{address}/positions": `${AS_OF}: quantities in whole tokens, USD at current prices, average cost.`,
  "GET /wallets/{address}/events": EVENTS,
  "GET /events": `${EVENTS} Ids increase in chain order.`,
  "GET /scores/wallet/{address}":
    "reputation_score and dimensions 0 to 100 (higher is better), win_rate a fraction 0 to 1; " +
    "updated_at is when the worker last scored the wallet.",
  "GET /scores/token/{address}":
    "risk_score and dimensions 0 to 100 (higher is riskier); evidence shares are fractions 0 to 1; " +
    "updated_at is when the worker last scored the token.",
  "POST /alerts":
    "A token alert (no kind) takes GET /tokens' filter units: USD, percent, hours, risk score 0 to 100; it " +
    "fires when a token newly matches at an indexed block. kind=price: a USD level or a percent move over " +
    "5m, 1h or 24h; kind=wallet and kind=smart_money fire on the indexed events of a block batch.",
  "GET /status":
    "Blocks are block numbers; lag_seconds is the time from the indexed block to the chain's head, in seconds.",
};
