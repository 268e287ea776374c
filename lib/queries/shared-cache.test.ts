import { afterEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { MAX_AGE_MS, polled, sharedRead } from "./shared-cache";

describe("shared view cache", () => {
  afterEach(() => vi.useRealTimers());

  it("loads a view once per data version, for every reader at once", async () => {
    const load = vi.fn(async () => load.mock.calls.length);
    const readers = await Promise.all(Array.from({ length: 100 }, () => sharedRead("/a", 1, load)));
    expect(new Set(readers)).toEqual(new Set([1]));
    expect(await sharedRead("/a", 2, load)).toBe(2);
    expect(await sharedRead("/a", 2, load)).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("reloads within a version after its maximum age (fields measured against the present)", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const load = vi.fn(async () => load.mock.calls.length);
    expect(await sharedRead("/b", 3, load)).toBe(1);
    vi.advanceTimersByTime(MAX_AGE_MS - 1);
    expect(await sharedRead("/b", 3, load)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await sharedRead("/b", 3, load)).toBe(2);
    expect(await sharedRead("/status", 3, load, 2_000)).toBe(3);
    vi.advanceTimersByTime(2_000);
    expect(await sharedRead("/status", 3, load, 2_000)).toBe(4);
  });

  it("does not keep a failed load", async () => {
    const failing = vi.fn(async () => {
      throw new Error("down");
    });
    await expect(sharedRead("/c", 4, failing)).rejects.toThrow("down");
    await Promise.resolve();
    expect(await sharedRead("/c", 4, async () => "up")).toBe("up");
  });

  it("reads a version older than the last seen without keeping it or emptying the newer one's", async () => {
    const load = vi.fn(async () => load.mock.calls.length);
    expect(await sharedRead("/old", 100, load)).toBe(1);
    // A replica behind another (db/read-replicas.ts): its own answer, each time.
    expect(await sharedRead("/old", 99, load)).toBe(2);
    expect(await sharedRead("/old", 99, load)).toBe(3);
    expect(await sharedRead("/old", 100, load)).toBe(1);
  });
});

describe("polled", () => {
  afterEach(() => vi.useRealTimers());

  it("reads again at most once per interval, and after a failure", async () => {
    vi.useFakeTimers({ now: 0 });
    let version = 7;
    const read = vi.fn(async () => {
      if (version < 0) throw new Error("no database");
      return version;
    });
    const poll = polled("polledTest", read, 500);
    const [db, other] = [{ $client: {} }, { $client: {} }] as unknown as Db[];
    const current = () => poll(db);
    expect(await Promise.all([current(), current()])).toEqual([7, 7]);
    version = 8;
    vi.advanceTimersByTime(499);
    expect(await current()).toBe(7);
    vi.advanceTimersByTime(1);
    expect(await current()).toBe(8);
    version = -1;
    vi.advanceTimersByTime(500);
    await expect(current()).rejects.toThrow("no database");
    await Promise.resolve();
    version = 9;
    expect(await current()).toBe(9);
    expect(read).toHaveBeenCalledTimes(4);
    // Each database its own: a replica's is read apart from the primary's.
    expect(await poll(other)).toBe(9);
    expect(read).toHaveBeenCalledTimes(5);
  });
});
