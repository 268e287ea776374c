import { describe, expect, it } from "vitest";
import { preferredSector, sectorOf, words } from "./sector";

const token = (name: string, symbol: string, launchpad = "Launchpad") => ({ name, symbol, launchpad });

describe("sector", () => {
  it("reads keywords from name and symbol", () => {
    expect(sectorOf(token("Shiba Moon", "SHMOON"))).toBe("meme");
    expect(sectorOf(token("Neural Agent", "NRL"))).toBe("ai");
    expect(sectorOf(token("Yield Vault", "YV"))).toBe("defi");
    expect(sectorOf(token("Pixel Quest", "PXQ"))).toBe("gaming");
    expect(sectorOf(token("Blue Ocean", "BLUE"))).toBe("other");
  });

  it("matches whole words for short keywords, so 'ai' does not hide in other words", () => {
    expect(words("PepeAI")).toEqual(["pepe", "ai"]);
    expect(sectorOf(token("Rain Chain", "RAIN"))).toBe("other");
    expect(sectorOf(token("Babydogecoin", "BDOGE"))).toBe("meme");
  });

  it("lets the name outweigh the launchpad, which decides otherwise", () => {
    expect(sectorOf(token("DeepMind Agent", "DMA", "PumpMeme"))).toBe("ai");
    expect(sectorOf(token("Blue Ocean", "BLUE", "MemePad"))).toBe("meme");
  });

  it("is deterministic, ties going to the more specific sector", () => {
    const t = token("Pepe GPT", "PGPT");
    expect(sectorOf(t)).toBe("ai");
    expect(sectorOf({ ...t })).toBe(sectorOf(t));
  });

  it("prefers the sector holding most of a wallet's volume", () => {
    expect(preferredSector({ meme: 100, ai: 300 })).toBe("ai");
    expect(preferredSector({})).toBe("other");
  });
});
