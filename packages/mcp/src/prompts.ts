import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x followed by 40 hex characters");

const ask = (text: string) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text } }] });

/** Prompts that call the tools in the order a careful analyst would. */
export function registerPrompts(server: McpServer) {
  server.registerPrompt(
    "assess_token",
    {
      title: "Assess a token",
      description: "Risk and market assessment of one token, from its profile, risk evidence, holders and candles.",
      argsSchema: { address },
    },
    ({ address }) =>
      ask(
        `Assess the token ${address} with the Onchain Intel tools, in this order:\n` +
          "1. token_profile: what it is, its price, liquidity, volume, holders, and its risk score and flags.\n" +
          "2. token_score: for each flag, the metrics and thresholds behind it; the dimensions without data.\n" +
          "3. token_holders (limit 20): concentration, and whether the large holders accumulate or distribute.\n" +
          "4. token_candles (interval 1h, limit 48): the price trend of the last two days.\n" +
          "5. wallet_launches on its creator, when known: what else it launched, and how many it pulled.\n" +
          "Then answer in at most 8 lines: a verdict (avoid, caution or acceptable) with the three facts that " +
          "decide it, each with its figure and unit, the block the data is as of, and the token's dashboard link. " +
          "Say which data is missing rather than guess.",
      ),
  );

  server.registerPrompt(
    "assess_wallet",
    {
      title: "Assess a wallet",
      description: "Whether a wallet is worth following: its record, reputation and current positions.",
      argsSchema: { address },
    },
    ({ address }) =>
      ask(
        `Assess the wallet ${address} with the Onchain Intel tools, in this order:\n` +
          "1. wallet_profile: classification, reputation, PnL and holdings.\n" +
          "2. wallet_score: what the reputation rests on (win rate, timing, consistency, drawdown), " +
          "and how many closed positions.\n" +
          "3. wallet_positions (status open): what it holds now and its unrealized PnL.\n" +
          "4. recent_events (wallet_address set, limit 20): what it did lately.\n" +
          "Then answer in at most 8 lines: is it worth following, with the figures that decide it (units " +
          "included), the block the data is as of, and the wallet's dashboard link.",
      ),
  );
}
