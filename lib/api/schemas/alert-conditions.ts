import { z } from "zod";
import * as kinds from "@/lib/domain/alert-conditions";
import { addressSchema } from "./common";

/** The JSON-body forms of the alert kinds' conditions beside the token filter (lib/domain/alert-conditions.ts). */

const USD_MAX = 1e18;
const minAmountUsd = z
  .number()
  .min(0)
  .max(USD_MAX)
  .optional()
  .meta({ description: "Only events worth at least this many USD (amount_usd of /v1/events); any by default" });
const anyToken = (what: string) => {
  const description = `Only ${what} of this token; of any token when absent`;
  return addressSchema.optional().meta({ description });
};
const ACTIONS_TEXT = "What fires it: buy and sell (its swaps), receive (a transfer to it), launch (a token it creates)";
const CROSSES_TEXT = "Fire when the price comes to price_usd or beyond it: above, or below";
const MOVES_TEXT = "Fire when the price changes up, down or either way by change_pct within window";

export const walletConditionsSchema = z
  .strictObject({
    wallet_address: addressSchema.meta({ description: "The wallet to watch (any case; stored lowercase)" }),
    actions: z
      .array(z.enum(kinds.WALLET_ACTIONS, { error: `each action must be one of ${kinds.WALLET_ACTIONS.join(", ")}` }))
      .min(1)
      .refine((a) => new Set(a).size === a.length, "must not repeat an action")
      .meta({
        description: ACTIONS_TEXT,
      }),
    token_address: anyToken("activity"),
    min_amount_usd: minAmountUsd,
  })
  .meta({ id: "WalletAlertConditions", description: "kind wallet: a wallet's buys, sells, receipts or launches" });

export const smartMoneyConditionsSchema = z
  .strictObject({ token_address: anyToken("buys"), min_amount_usd: minAmountUsd })
  .meta({ id: "SmartMoneyAlertConditions", description: "kind smart_money: a buy by a wallet classified smart_money" });

const windowNames = kinds.PRICE_WINDOW_NAMES.join(", ");
const windows = kinds.PRICE_WINDOW_NAMES.map((w) => `${w} (price_change_${w}_pct)`).join(", ");

export const priceConditionsSchema = z
  .strictObject({
    token_address: addressSchema.meta({ description: "The token whose price is watched" }),
    crosses: z.enum(kinds.PRICE_SIDES).optional().meta({ description: CROSSES_TEXT }),
    price_usd: z.number().gt(0).max(USD_MAX).optional().meta({ description: "The level, in USD, for crosses" }),
    moves: z.enum(kinds.PRICE_MOVES).optional().meta({ description: MOVES_TEXT }),
    change_pct: z.number().gt(0).max(1e9).optional().meta({ description: "The change, in percent, for moves" }),
    window: z
      .enum(kinds.PRICE_WINDOW_NAMES)
      .optional()
      .meta({ description: `The window of the change, as the token's price changes: ${windows}` }),
  })
  .superRefine((c, ctx) => {
    const conflict = kinds.priceConditionsConflict(c);
    if (conflict) ctx.addIssue({ code: "custom", path: [conflict.param], message: conflict.message });
  })
  .meta({
    id: "PriceAlertConditions",
    description: `kind price: crosses with price_usd, or moves with change_pct and window (${windowNames})`,
  });
