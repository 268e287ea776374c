import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { Cache, databaseCache, processCache } from "./cache";

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("Cache", () => {
  afterEach(() => vi.useRealTimers());

  it("drops the oldest entries beyond its bound, by insertion or by last use", () => {
    const fifo = new Cache<string, number>({ name: "t", max: 2 });
    const lru = new Cache<string, number>({ name: "t", max: 2, lru: true });
    for (const c of [fifo, lru]) {
      c.set("a", 1);
      c.set("b", 2);
      c.get("a");
      c.set("c", 3);
    }
    expect([fifo.get("a"), fifo.get("b"), fifo.get("c")]).toEqual([undefined, 2, 3]);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
  });

  it("bounds by weight, and weighs a promise by its value once it resolves", async () => {
    const c = new Cache<string, Promise<string>>({ name: "t", max: 10, weight: (s) => s.length });
    c.set("a", Promise.resolve("xxxxxx"));
    await settle();
    c.set("b", Promise.resolve("yyyy"));
    await settle();
    expect(c.size).toBe(2);
    c.set("c", Promise.resolve("z"));
    await settle();
    expect([c.has("a"), c.has("b"), c.has("c")]).toEqual([false, true, true]);
    // The newest entry stays even when it alone is over the bound.
    c.set("d", Promise.resolve("w".repeat(20)));
    await settle();
    expect([c.has("b"), c.has("c"), c.has("d")]).toEqual([false, false, true]);
  });

  it("expires entries after their time to live, the cache's or their own", () => {
    vi.useFakeTimers({ now: 1_000 });
    const c = new Cache<string, number>({ name: "t", max: 10, ttlMs: 100 });
    c.set("a", 1);
    c.set("b", 2, 50);
    vi.advanceTimersByTime(49);
    expect([c.get("a"), c.get("b")]).toEqual([1, 2]);
    vi.advanceTimersByTime(1);
    expect([c.get("a"), c.get("b")]).toEqual([1, undefined]);
    vi.advanceTimersByTime(50);
    expect(c.get("a")).toBeUndefined();
  });

  it("empties when the data version moves", () => {
    const c = new Cache<string, number>({ name: "t", max: 10 });
    c.at(1).set("a", 1);
    expect(c.at(1).get("a")).toBe(1);
    expect(c.at(2).get("a")).toBeUndefined();
    c.set("a", 2);
    expect(c.at(1).get("a")).toBeUndefined();
  });

  it("reads an older data version through without keeping it or emptying the newer one's", async () => {
    const c = new Cache<string, Promise<number>>({ name: "t", max: 10 });
    const load = vi.fn(async () => load.mock.calls.length);
    expect(await c.at(100).load("k", load)).toBe(1);
    // A replica behind another (db/read-replicas.ts): its own answer, each time.
    expect(await c.at(99).load("k", load)).toBe(2);
    expect(await c.at(99).load("k", load)).toBe(3);
    expect(await c.at(100).load("k", load)).toBe(1);
  });

  it("shares one load among simultaneous readers and keeps no failed load", async () => {
    const c = new Cache<string, Promise<number>>({ name: "t", max: 10 });
    const load = vi.fn(async () => load.mock.calls.length);
    const readers = await Promise.all(Array.from({ length: 10 }, () => c.load("k", load)));
    expect(new Set(readers)).toEqual(new Set([1]));
    expect(load).toHaveBeenCalledTimes(1);
    await expect(
      c.load("f", async () => {
        throw new Error("down");
      }),
    ).rejects.toThrow("down");
    await settle();
    expect(c.has("f")).toBe(false);
    expect(await c.load("f", async () => 7)).toBe(7);
  });

  it("keeps nothing when switched off", async () => {
    const c = new Cache<string, Promise<number>>({ name: "t", max: 10 }, true);
    const load = vi.fn(async () => 1);
    await c.load("k", load);
    await c.load("k", load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(c.size).toBe(0);
  });
});

describe("scopes", () => {
  it("shares a process cache by name, and keeps one cache per database", () => {
    expect(processCache({ name: "scopeTest", max: 1 })).toBe(processCache({ name: "scopeTest", max: 1 }));
    const of = databaseCache<string, number>({ name: "scopeTestDb", max: 10 });
    const [a, b] = [{ $client: {} }, { $client: {} }] as unknown as Db[];
    of(a).set("k", 1);
    expect(of(a).get("k")).toBe(1);
    expect(of(b).get("k")).toBeUndefined();
    expect(databaseCache({ name: "scopeTestDb", max: 10 })(a)).toBe(of(a));
  });
});
