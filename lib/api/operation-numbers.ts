/**
 * Phrases the operations' descriptions share (app/v1/<path>/operation.ts), which say what their
 * numbers mean: units, windows, the block they are as of.
 */

export const AS_OF = "Figures are as of the indexed block (X-Indexed-Block)";
export const MARKET_NUMBERS =
  `${AS_OF}: USD amounts in US dollars, 24 h and 1 h windows ending at that block, changes in percent, ` +
  "risk_score 0 to 100 (higher is riskier).";
export const EVENT_NUMBERS =
  "amount_usd is the event's USD value at its time; confirmed is relative to the indexed block (X-Indexed-Block).";
