import { z } from "zod";
import * as kinds from "@/lib/domain/alert-conditions";
import { addressSchema } from "./common";

/**
 * The JSON forms of the alert kinds' conditions beside the token filter
 * (lib/domain/alert-conditions.ts): as a request takes them (addresses in any case), and as a
 * response shows them (addresses as stored, lowercase), from one declaration.
 */

const USD_MAX = 1e18;
const minAmountUsd = z
  .number()
  .min(0)
  .max(USD_MAX)
  .optional()
  .meta({ description: "Only events worth at least this many USD (amount_usd of /v1/events); any by default" });
const ACTIONS_TEXT = "What fires it: buy and sell (its swaps), receive (a transfer to it), launch (a token it creates)";
const CROSSES_TEXT = "Fire when the price comes to price_usd or beyond it: above, or below";
const WALLET_TEXT = "kind wallet: a wallet's buys, sells, receipts or launches";
const SMART_MONEY_TEXT = "kind smart_money: a buy by a wallet classified smart_money";
const MOVES_TEXT = "Fire when the price changes up, down or either way by change_pct within window";
const windowNames = kinds.PRICE_WINDOW_NAMES.join(", ");
const windows = kinds.PRICE_WINDOW_NAMES.map((w) => `${w} (price_change_${w}_pct)`).join(", ");

type Address = (description: string) => z.ZodType<string>;

/** The three kinds' schemas with `address` for their addresses, their ids ending in `suffix`. */
function conditionSchemas(address: Address, suffix: string) {
  const anyToken = (what: string) => address(`Only ${what} of this token; of any token when absent`).optional();
  const wallet = z
    .strictObject({
      wallet_address: address("The wallet to watch"),
      actions: z
        .array(z.enum(kinds.WALLET_ACTIONS, { error: `each action must be one of ${kinds.WALLET_ACTIONS.join(", ")}` }))
        .min(1)
        .refine((a) => new Set(a).size === a.length, "must not repeat an action")
        .meta({ description: ACTIONS_TEXT }),
      token_address: anyToken("activity"),
      min_amount_usd: minAmountUsd,
    })
    .meta({ id: `WalletAlertConditions${suffix}`, description: WALLET_TEXT });
  const smartMoney = z
    .strictObject({ token_address: anyToken("buys"), min_amount_usd: minAmountUsd })
    .meta({ id: `SmartMoneyAlertConditions${suffix}`, description: SMART_MONEY_TEXT });
  const price = z
    .strictObject({
      token_address: address("The token whose price is watched"),
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
      id: `PriceAlertConditions${suffix}`,
      description: `kind price: crosses with price_usd, or moves with change_pct and window (${windowNames})`,
    });
  return { wallet, smart_money: smartMoney, price };
}

const anyCase: Address = (description) => addressSchema.meta({ description: `${description} (any case)` });
const lowercase: Address = (description) => z.string().meta({ description: `${description} (lowercase)` });

const requested = conditionSchemas(anyCase, "");
export const walletConditionsSchema = requested.wallet;
export const smartMoneyConditionsSchema = requested.smart_money;
export const priceConditionsSchema = requested.price;

/** The conditions as an alert shows them. */
export const storedConditionSchemas = conditionSchemas(lowercase, "Stored");
