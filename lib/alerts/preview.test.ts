import { describe, expect, it } from "vitest";
import { replayPrice } from "./preview";

const FROM = Date.parse("2031-03-01T00:00:00.000Z");
const TO = FROM + 86_400_000;
const MIN = 60_000;
const HOUR = 3_600_000;
const TOKEN = `0x${"a".repeat(40)}`;
const at = (ms: number) => new Date(ms).toISOString();
const times = (firings: { at: string }[]) => firings.map((f) => f.at);

describe("price replay (the builder's preview)", () => {
  it("fires when the price reaches the level, at most once per 15 minutes while it holds", () => {
    const points = [
      { ms: FROM - 2 * 86_400_000, price: 0.5 },
      { ms: FROM + HOUR, price: 1.2 },
      { ms: FROM + HOUR + 5 * MIN, price: 0.8 },
      // Back above within the cooldown: it fires when the cooldown ends, since it still holds then.
      { ms: FROM + HOUR + 10 * MIN, price: 1.1 },
      { ms: FROM + HOUR + 20 * MIN, price: 0.9 },
      // Above for a moment only, inside the cooldown of that firing: nothing.
      { ms: FROM + HOUR + 22 * MIN, price: 1.05 },
      { ms: FROM + HOUR + 24 * MIN, price: 0.95 },
      { ms: FROM + 5 * HOUR, price: 1.3 },
    ];
    const firings = replayPrice(points, { token_address: TOKEN, crosses: "above", price_usd: 1 }, FROM, TO);
    expect(firings).toEqual([
      { at: at(FROM + HOUR), price_usd: 1.2, change_pct: null },
      { at: at(FROM + HOUR + 15 * MIN), price_usd: 1.1, change_pct: null },
      { at: at(FROM + 5 * HOUR), price_usd: 1.3, change_pct: null },
    ]);
  });

  it("fires at the start when the condition holds then, as a new alert would, and never without a price", () => {
    const above = [{ ms: FROM - HOUR, price: 2 }];
    expect(times(replayPrice(above, { token_address: TOKEN, crosses: "above", price_usd: 1 }, FROM, TO))).toEqual([
      at(FROM),
    ]);
    const unpriced = [{ ms: FROM - HOUR, price: 0 }];
    expect(replayPrice(unpriced, { token_address: TOKEN, crosses: "below", price_usd: 1 }, FROM, TO)).toEqual([]);
  });

  it("fires on a move within the window, measured from the price before the window", () => {
    const points = [
      { ms: FROM - 2 * HOUR, price: 1 },
      { ms: FROM + 10 * MIN, price: 1.6 },
      // An hour after the jump the window starts from 1.6: no move, the condition stops holding.
      { ms: FROM + 3 * HOUR, price: 2.5 },
    ];
    const firings = replayPrice(points, { token_address: TOKEN, moves: "up", change_pct: 50, window: "1h" }, FROM, TO);
    expect(firings.map((f) => [f.at, f.price_usd, Math.round(f.change_pct!)])).toEqual([
      [at(FROM + 10 * MIN), 1.6, 60],
      [at(FROM + 3 * HOUR), 2.5, 56],
    ]);
    expect(
      replayPrice(points, { token_address: TOKEN, moves: "down", change_pct: 10, window: "1h" }, FROM, TO),
    ).toEqual([]);
  });
});
