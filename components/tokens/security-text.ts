/**
 * The security panel's sentences (security-panel.tsx): each check in words, with its tone. A
 * check that could not run says so and why; it never reads as safe.
 */
import type { TokenSecurity } from "@/lib/queries/security";

export type Tone = "bad" | "warn" | "good" | "unknown";
export type Line = { tone: Tone; text: string };

/** 5%, 0.99%, 100%: at most two decimals, none when whole. */
export const pctText = (n: number) => `${Number(n.toFixed(2))}%`;

export function tradeLines({ trade }: TokenSecurity): Line[] {
  if (trade.status === "unknown") return [{ tone: "unknown", text: `Can it be sold? Unknown: ${trade.reason}` }];
  const lines: Line[] = [];
  if (trade.honeypot === "yes")
    lines.push({
      tone: "bad",
      text:
        trade.honeypot_reason === "sell_reverts"
          ? "You cannot sell: sells revert"
          : "You cannot sell: a sell returns almost nothing",
    });
  else lines.push({ tone: "good", text: "A small buy and its sell go through" });
  const taxTone = (n: number) => (n >= 10 ? "bad" : n > 0 ? "warn" : "good");
  if (trade.buy_tax_pct !== undefined)
    lines.push({ tone: taxTone(trade.buy_tax_pct), text: `Buy tax ${pctText(trade.buy_tax_pct)}` });
  if (trade.sell_tax_pct !== undefined)
    lines.push({ tone: taxTone(trade.sell_tax_pct), text: `Sell tax ${pctText(trade.sell_tax_pct)}` });
  return lines;
}

export function ownerLines({ owner, code }: TokenSecurity): Line[] {
  const lines: Line[] = [];
  if (owner.status === "unknown") lines.push({ tone: "unknown", text: `Owner unknown: ${owner.reason}` });
  else if (owner.state === "renounced") lines.push({ tone: "good", text: "Owner renounced" });
  else if (owner.state === "none") lines.push({ tone: "good", text: "No owner function" });
  // Who can use the code's powers: the owner while there is one, else whoever the code lets.
  const who = owner.status === "ok" && owner.state === "active" ? "Owner" : "The code";
  if (code.status === "unknown") {
    lines.push({ tone: "unknown", text: `What the code can do is unknown: ${code.reason}` });
    return lines;
  }
  const powers: [boolean | undefined, string][] = [
    [code.can_mint, "can mint"],
    [code.can_pause, "can pause trading"],
    [code.can_blacklist, "can blacklist wallets"],
    [code.can_change_fees, "can change fees"],
  ];
  const held = powers.filter(([has]) => has).map(([, text]) => text);
  const tone = who === "Owner" ? "bad" : "warn";
  for (const text of held) lines.push({ tone, text: `${who} ${text}` });
  if (code.proxy) lines.push({ tone: "bad", text: "Upgradeable proxy: its code can be replaced" });
  if (!held.length && !code.proxy) lines.push({ tone: "good", text: "No mint, pause, blacklist or fee function" });
  return lines;
}

const RELEASE_TEXT = {
  never: "locked for good",
  by_owner: "its owner can withdraw it at any time",
  unknown: "terms unknown",
} as const;

export function liquidityLines({ liquidity: lp }: TokenSecurity): Line[] {
  if (lp.status === "unknown") return [{ tone: "unknown", text: `LP unknown: ${lp.reason}` }];
  const parts: string[] = [];
  if (lp.burnt_pct) parts.push(`${pctText(lp.burnt_pct)} burnt`);
  for (const l of lp.locks ?? [])
    parts.push(
      l.release === "never"
        ? `${pctText(l.share_pct)} locked for good in ${l.name}`
        : `${pctText(l.share_pct)} in ${l.name} (${RELEASE_TEXT[l.release]})`,
    );
  if (lp.free_pct) parts.push(`${pctText(lp.free_pct)} free to pull`);
  const safe =
    (lp.burnt_pct ?? 0) + (lp.locks ?? []).filter((l) => l.release === "never").reduce((s, l) => s + l.share_pct, 0);
  const tone: Tone = safe >= 95 ? "good" : safe >= 50 ? "warn" : "bad";
  return [{ tone, text: `LP: ${parts.join(", ") || "none"}` }];
}
