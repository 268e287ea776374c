/**
 * The sector of a token from its name, symbol and launchpad name, by keyword lists. Name and
 * symbol outweigh the launchpad (a meme launchpad also lists AI tokens); ties go to the more
 * specific sector (the order of SECTOR_KEYWORDS). Deterministic: same words, same sector.
 */
import type { Sector } from "@/lib/domain/vocab";
import { SECTOR_MATCH_WEIGHTS } from "./weights";

type KnownSector = Exclude<Sector, "other">;

/** Whole words, matched case-insensitively; words of 4+ letters also match inside a longer word. */
export const SECTOR_KEYWORDS: Record<KnownSector, readonly string[]> = {
  ai: [
    "ai",
    "agi",
    "gpt",
    "llm",
    "agent",
    "agents",
    "neural",
    "brain",
    "cortex",
    "robot",
    "bot",
    "deepmind",
    "intelligence",
    "cognitive",
    "sentient",
    "quant",
    "ml",
  ],
  gaming: [
    "game",
    "games",
    "gaming",
    "play",
    "quest",
    "arena",
    "guild",
    "pixel",
    "battle",
    "hero",
    "heroes",
    "legends",
    "craft",
    "metaverse",
    "arcade",
    "loot",
    "rpg",
    "gamefi",
  ],
  defi: [
    "defi",
    "swap",
    "yield",
    "finance",
    "fi",
    "lend",
    "lending",
    "vault",
    "stake",
    "staking",
    "dex",
    "farm",
    "protocol",
    "capital",
    "usd",
    "stable",
    "liquid",
    "perp",
    "bridge",
    "dao",
  ],
  meme: [
    "meme",
    "doge",
    "dog",
    "inu",
    "shib",
    "pepe",
    "frog",
    "cat",
    "kitty",
    "moon",
    "elon",
    "wojak",
    "bonk",
    "chad",
    "floki",
    "based",
    "wif",
    "pump",
    "fun",
    "cope",
    "lol",
    "ape",
    "monke",
  ],
};

/** Words of a text: split on non-letters/digits and on camelCase boundaries, lowercased. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const matches = (word: string, keyword: string) => word === keyword || (keyword.length >= 4 && word.includes(keyword));

function hits(textWords: string[], sector: KnownSector): number {
  return SECTOR_KEYWORDS[sector].filter((k) => textWords.some((w) => matches(w, k))).length;
}

export function sectorOf(token: { name: string; symbol: string; launchpad: string }): Sector {
  const nameWords = [...words(token.name), ...words(token.symbol)];
  const padWords = words(token.launchpad);
  let best: Sector = "other";
  let bestScore = 0;
  for (const sector of Object.keys(SECTOR_KEYWORDS) as KnownSector[]) {
    const score =
      SECTOR_MATCH_WEIGHTS.nameOrSymbol * hits(nameWords, sector) +
      SECTOR_MATCH_WEIGHTS.launchpad * hits(padWords, sector);
    if (score > bestScore) [best, bestScore] = [sector, score];
  }
  return best;
}

/** sector_preference: the sector holding most of a wallet's volume ("other" when it has none). */
export function preferredSector(volumeBySector: Partial<Record<Sector, number>>): Sector {
  let best: Sector = "other";
  let bestVolume = 0;
  for (const [sector, volume] of Object.entries(volumeBySector) as [Sector, number][]) {
    if (volume > bestVolume) [best, bestVolume] = [sector, volume];
  }
  return best;
}
