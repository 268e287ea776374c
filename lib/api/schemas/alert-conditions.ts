import { z } from "zod";
import { PRICE_MOVES, PRICE_SIDES, PRICE_WINDOW_NAMES, PRICE_WINDOWS, priceConditionsConflict, WALLET_ACTIONS } from "@/lib/domain/alert-conditions";
import { addressSchema } from "./common";

/** The JSON-body forms of the alert kinds' conditions beside the token filter (lib/domain/alert-conditions.ts). */

const USD_MAX = 1e18;
const minAmountUsd = z
  .number()
  .min(0)
  .max(USD_MAX)
  .optional()
  .meta({ description: "Only events worth at least this many USD (amount_usd of /v1/events); any by default" });
const anyToken = (what: string) => addressSchema.optional().meta({ description: `Only ${what} of this token; of any token when absent` });

export const walletConditionsSchema = z
  .strictObject({
    wallet_address: addressSchema.meta({ description: "The wallet to watch (any case; stored lowercase)" }),
    actions: z
      .array(z.enum(WALLET_ACTIONS, { error: `each action must be one of ${WALLET_ACTIONS.join(", ")}` }))
      .min(1)
      .refine((a) => new Set(a).size === a.length, "must not repeat an action")
      .meta({
        description: "What fires the alert: buy and sell (the wallet's swaps), receive (a transfer to it), launch (a token it creates)",
      }),
    token_address: anyToken("activity"),
    min_amount_usd: minAmountUsd,
  })
  .meta({ id: "WalletAlertConditions", description: "kind wallet: a wallet's buys, sells, receipts or launches" });

export const smartMoneyConditionsSchema = z
  .strictObject({ token_address: anyToken("buys"), min_amount_usd: minAmountUsd })
  .meta({ id: "SmartMoneyAlertConditions", description: "kind smart_money: a buy by a wallet classified smart_money" });

const windows = PRICE_WINDOW_NAMES.map((w) => `${w} (price_change_${w}_pct)`).join(", ");

export const priceConditionsSchema = z
  .strictObject({
    token_address: addressSchema.meta({ description: "The token whose price is watched" }),
    crosses: z.enum(PRICE_SIDES).optional().meta({ description: "Fire when the price comes to or above (below) price_usd" }),
    price_usd: z.number().gt(0).max(USD_MAX).optional().meta({ description: "The level, in USD, for crosses" }),
    moves: z.enum(PRICE_MOVES).optional().meta({ description: "Fire when the price changes up, down or either way by change_pct within window" }),
    change_pct: z.number().gt(0).max(1e9).optional().meta({ description: "The change, in percent, for moves" }),
    window: z
      .enum(PRICE_WINDOW_NAMES)
      .optional()
      .meta({ description: `The window of the change, as the token's price changes: ${windows}` }),
  })
  .superRefine((c, ctx) => {
    const conflict = priceConditionsConflict(c);
    if (conflict) ctx.addIssue({ code: "custom", path: [conflict.param], message: conflict.message });
  })
  .meta({
    id: "PriceAlertConditions",
    description: `kind price: crosses with price_usd, or moves with change_pct and window (${Object.keys(PRICE_WINDOWS).join(", ")})`,
  });
