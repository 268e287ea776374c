/**
 * Launched tokens and their market: names that tell their sector, and the hype cycle that drives
 * how much the crowd trades each token and in which direction.
 */
import type { Address } from "viem";
import type { Sector } from "@/lib/domain/vocab";
import type { TokenTruth } from "./ground-truth";
import type { PairInfo } from "./ledger";
import type { Rng } from "./random";

const WORDS: Record<Sector, { stems: string[]; suffixes: string[] }> = {
  meme: {
    stems: [
      "Pepe",
      "Doge",
      "Shiba",
      "Frog",
      "Wojak",
      "Bonk",
      "Chad",
      "Hamster",
      "Penguin",
      "Banana",
      "Goblin",
      "Kitty",
    ],
    suffixes: ["Inu", "Coin", "King", "Mania", "Army", "Moon"],
  },
  ai: {
    stems: ["Neural", "Agent", "Cortex", "Synapse", "Tensor", "Cognito", "Sentient", "Vector", "Model", "Robo"],
    suffixes: ["AI", "Mind", "Net", "Labs", "Brain", "GPT"],
  },
  defi: {
    stems: ["Yield", "Vault", "Lend", "Stake", "Liquid", "Farm", "Bond", "Perp", "Hedge", "Swap"],
    suffixes: ["Finance", "Protocol", "Capital", "Fi", "DAO", "Markets"],
  },
  gaming: {
    stems: ["Quest", "Arena", "Pixel", "Guild", "Dungeon", "Loot", "Raid", "Realm", "Blade", "Kart"],
    suffixes: ["Games", "Verse", "Play", "Heroes", "Legends", "Arcade"],
  },
  other: {
    stems: ["Green", "Solar", "Health", "Music", "Travel", "Carbon", "Social", "Charity", "Sport", "Art"],
    suffixes: ["Token", "Chain", "Network", "Project", "Club", "Hub"],
  },
};

/** A name and ticker in the sector's vocabulary, unique among `used` tickers. */
export function tokenName(rng: Rng, sector: Sector, used: Set<string>): { name: string; symbol: string } {
  const { stems, suffixes } = WORDS[sector];
  for (let attempt = 0; ; attempt++) {
    const stem = rng.pick(stems);
    const suffix = rng.pick(suffixes);
    const base = `${stem.slice(0, 3)}${suffix.slice(0, 2)}`.toUpperCase();
    const symbol = attempt < 20 ? base : `${base}${attempt}`;
    if (used.has(symbol)) continue;
    used.add(symbol);
    return { name: `${stem} ${suffix}`, symbol };
  }
}

export interface SimToken {
  address: Address;
  pair: PairInfo;
  name: string;
  symbol: string;
  sector: Sector;
  creator: Address;
  launchSlot: number;
  /** Relative share of the crowd's attention at the height of the hype. */
  interest: number;
  /** End of the hype: the crowd buys until here, then interest decays and selling dominates. */
  peakSlot: number;
  halfLifeSlots: number;
  rugged: boolean;
  /** No trading before this slot (liquidity is being moved). */
  frozenUntil: number;
  /** Slots at which a whale is set to sell its holding: dumps that smart money knows are coming. */
  whaleExits: number[];
  truth: TokenTruth;
}

/** Blocks after a launch that belong to snipers (and insiders): everyone else trades later. */
export const SNIPER_BLOCKS = 3;
/** Below this fraction of its peak interest a token is never traded by the crowd again. */
const DEAD_INTEREST = 0.005;

export class TokenBook {
  readonly symbols = new Set<string>();
  private live: SimToken[] = [];
  private readonly byAddress = new Map<Address, SimToken>();

  add(token: SimToken): void {
    this.live.push(token);
    this.byAddress.set(token.address, token);
  }

  /** The crowd's trading intensity on the token at `slot`: full during the hype, then halving
   * every half-life; a rugged token keeps a trickle of panic trades. */
  intensity(t: SimToken, slot: number): number {
    if (!this.tradable(t, slot) || slot <= t.launchSlot + SNIPER_BLOCKS) return 0;
    const decay = slot <= t.peakSlot ? 1 : 0.5 ** ((slot - t.peakSlot) / t.halfLifeSlots);
    return t.interest * decay * (t.rugged ? 0.03 : 1);
  }

  /** Probability that a crowd trade on the token is a buy. */
  buyBias(t: SimToken, slot: number): number {
    if (t.rugged) return 0.1;
    return slot <= t.peakSlot ? 0.8 : 0.4;
  }

  /** The crowd and every other trader start the block after the launch (the launch block
   * holds only the launch and its bundled buys), and pause while liquidity is moved. */
  tradable(t: SimToken, slot: number): boolean {
    return slot > t.launchSlot && slot >= t.frozenUntil;
  }

  get(address: Address): SimToken | undefined {
    return this.byAddress.get(address);
  }

  /** A token drawn by trading intensity; forgets tokens the crowd has abandoned for good. */
  pickByIntensity(rng: Rng, slot: number): SimToken | undefined {
    this.live = this.live.filter(
      (t) =>
        slot <= t.launchSlot + SNIPER_BLOCKS ||
        slot < t.frozenUntil ||
        this.intensity(t, slot) >= DEAD_INTEREST * t.interest,
    );
    const i = rng.weightedIndex(this.live.map((t) => this.intensity(t, slot)));
    return i < 0 ? undefined : this.live[i];
  }

  /** The most traded token right now that is not rugged. */
  hottest(slot: number): SimToken | undefined {
    let best: SimToken | undefined;
    let bestIntensity = 0;
    for (const t of this.live) {
      const intensity = t.rugged ? 0 : this.intensity(t, slot);
      if (intensity > bestIntensity) [best, bestIntensity] = [t, intensity];
    }
    return best;
  }
}
