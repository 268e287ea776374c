import type { Sector } from "@/lib/scoring/vocab";

/**
 * A token's sector from its name, symbol and launchpad. Provisional keyword rules until the
 * scoring library ships its own (lib/scoring/sector.ts); this is the one place that calls it.
 */
const KEYWORDS: [Sector, RegExp][] = [
  ["ai", /\b(ai|gpt|agent|neural|bot|brain|llm|deep|compute|agi)\b/i],
  ["gaming", /\b(game|gaming|play|quest|arena|guild|pixel|loot|metaverse|nft)\b/i],
  ["defi", /\b(swap|yield|lend|vault|stake|finance|fi|dex|dao|protocol|usd|bond)\b/i],
  ["meme", /\b(doge|pepe|shib|inu|cat|frog|moon|wojak|elon|meme|bonk|pump|chad|based)\b/i],
];

export function sectorOf(name: string, symbol: string, launchpad: string): Sector {
  const text = `${name} ${symbol} ${launchpad}`.replace(/([a-z])([A-Z])/g, "$1 $2");
  return KEYWORDS.find(([, re]) => re.test(text))?.[0] ?? "other";
}
