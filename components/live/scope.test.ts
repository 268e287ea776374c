import { describe, expect, it } from "vitest";
import type { LiveMessage } from "@/lib/api/stream/live";
import { movedBy, SCOPED_MAX_AGE_MS } from "./scope";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const message = (m: Partial<LiveMessage>): LiveMessage => ({
  version: 7,
  indexed_block: 100,
  confirmed_block: 68,
  tokens: [],
  wallets: [],
  ...m,
});
const now = 1_000_000;
const fresh = now - 1_000;

describe("movedBy", () => {
  it("moves the market's and the status's views on every message", () => {
    expect(movedBy("market", message({}), fresh, now)).toBe(true);
    expect(movedBy("status", message({}), fresh, now)).toBe(true);
  });

  it("moves a token's or a wallet's views only on a message that names it, or lists too many to name", () => {
    expect(movedBy({ token: A }, message({ tokens: [A] }), fresh, now)).toBe(true);
    expect(movedBy({ token: A }, message({ tokens: [B], wallets: [A] }), fresh, now)).toBe(false);
    expect(movedBy({ token: A }, message({ tokens: null }), fresh, now)).toBe(true);
    expect(movedBy({ wallet: A }, message({ wallets: [A] }), fresh, now)).toBe(true);
    expect(movedBy({ wallet: A }, message({ tokens: [A], wallets: [B] }), fresh, now)).toBe(false);
    expect(movedBy({ wallet: A }, message({ wallets: null }), fresh, now)).toBe(true);
  });

  it("moves a view not refreshed for the full refresh's interval on any message", () => {
    expect(movedBy({ token: A }, message({ tokens: [B] }), now - SCOPED_MAX_AGE_MS, now)).toBe(true);
    expect(movedBy({ wallet: A }, message({}), now - SCOPED_MAX_AGE_MS + 1, now)).toBe(false);
  });
});
