import type { Rng } from "./rng";

export const SECTORS = ["meme", "ai", "defi", "gaming", "other"] as const;
export type Sector = (typeof SECTORS)[number];

/** Word stock per sector: a name is stem + suffix, its symbol is derived from the name. */
const STEMS: Record<Sector, string[]> = {
  meme: [
    "Pepe",
    "Doge",
    "Shiba",
    "Wojak",
    "Frog",
    "Bonk",
    "Floki",
    "Chad",
    "Based",
    "Giga",
    "Turbo",
    "Mog",
    "Ape",
    "Bobo",
    "Pnut",
    "Wif",
    "Goat",
    "Kitty",
    "Hamster",
    "Banana",
    "Rocket",
    "Degen",
    "Honk",
    "Pug",
    "Moo",
    "Noot",
  ],
  ai: [
    "Neural",
    "Cortex",
    "Synapse",
    "Tensor",
    "Vector",
    "Sentient",
    "Cognito",
    "Aether",
    "Prompt",
    "Oracle",
    "Quant",
    "Deep",
    "Logic",
    "Turing",
    "Nexus",
    "Axon",
    "Qubit",
    "Mind",
    "Vision",
    "Echo",
    "Cipher",
    "Kernel",
  ],
  defi: [
    "Yield",
    "Vault",
    "Lend",
    "Stake",
    "Curve",
    "Liquid",
    "Flux",
    "Delta",
    "Hedge",
    "Margin",
    "Prime",
    "Bond",
    "Ledger",
    "Reserve",
    "Anchor",
    "Pulse",
    "Orbit",
    "Harbor",
    "Meridian",
    "Summit",
    "Keystone",
    "Apex",
  ],
  gaming: [
    "Pixel",
    "Arena",
    "Guild",
    "Loot",
    "Saga",
    "Realm",
    "Dungeon",
    "Raid",
    "Clash",
    "Legend",
    "Craft",
    "Knight",
    "Kart",
    "Dragon",
    "Quest",
    "Mecha",
    "Blade",
    "Rogue",
    "Titan",
    "Void",
    "Spell",
    "Goblin",
  ],
  other: [
    "Solar",
    "Green",
    "Travel",
    "Music",
    "Canvas",
    "Social",
    "Health",
    "Civic",
    "Nova",
    "Terra",
    "Atlas",
    "Harvest",
    "Ocean",
    "Urban",
    "Charity",
    "Studio",
    "Nomad",
    "Garden",
    "Signal",
    "Beacon",
    "Compass",
    "Forge",
  ],
};

const SUFFIXES: Record<Sector, string[]> = {
  meme: ["Inu", "Coin", "Moon", "Pump", "Cat", "King", "Wif Hat", "Classic", "2.0", ""],
  ai: ["AI", "Agent", "Protocol", "Labs", "Network", "GPT", "Intelligence", ""],
  defi: ["Finance", "Protocol", "DAO", "Swap", "Capital", "Markets", "Yield", ""],
  gaming: ["Quest", "World", "Games", "Arena", "Heroes", "Wars", "Legends", ""],
  other: ["Network", "Chain", "Token", "Project", "Collective", "Hub", ""],
};

/** Sector mix per launchpad: PumpPad is the meme venue, MoonLaunch a broader one. */
export const LAUNCHPADS = ["PumpPad", "MoonLaunch"] as const;
export type Launchpad = (typeof LAUNCHPADS)[number];
const SECTOR_WEIGHTS: Record<Launchpad, number[]> = {
  PumpPad: [0.6, 0.15, 0.05, 0.12, 0.08],
  MoonLaunch: [0.2, 0.25, 0.25, 0.18, 0.12],
};

export function pickSector(rng: Rng, launchpad: Launchpad): Sector {
  return SECTORS[rng.weighted(SECTOR_WEIGHTS[launchpad])];
}

/** Tickers as launchers write them: the stem, or its head plus the suffix's initial or "AI". */
function symbolOf(stem: string, suffix: string, rng: Rng): string {
  const head = stem.toUpperCase().replace(/[^A-Z]/g, "");
  const tail = suffix.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (tail === "AI" || tail === "GPT") return head.slice(0, 4) + tail;
  return tail && rng.chance(0.4) ? head.slice(0, 3) + tail[0] : head.slice(0, rng.int(3, 6));
}

export function tokenName(rng: Rng, sector: Sector): { name: string; symbol: string } {
  const stem = rng.pick(STEMS[sector]);
  const suffix = rng.pick(SUFFIXES[sector]);
  return { name: `${stem} ${suffix}`.trim(), symbol: symbolOf(stem, suffix, rng) };
}
