import { afterEach, describe, expect, it, vi } from "vitest";
import { cached } from "./cache";
import { JsonBody } from "./json-body";

const text = async (b: Promise<JsonBody>) => new TextDecoder().decode((await b).bytes);

describe("response cache", () => {
  afterEach(() => vi.useRealTimers());

  it("serves a hit within a second of the same data version, and reloads after", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const load = vi.fn(async () => ({ n: load.mock.calls.length }));
    expect(await text(cached(1, "/a", load))).toBe('{"n":1}');
    vi.advanceTimersByTime(999);
    expect(await text(cached(1, "/a", load))).toBe('{"n":1}');
    vi.advanceTimersByTime(1);
    expect(await text(cached(1, "/a", load))).toBe('{"n":2}');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("empties when the data version changes", async () => {
    const load = vi.fn(async () => "x");
    await cached(2, "/b", load);
    await cached(3, "/b", load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("does not keep a failed load", async () => {
    const failing = vi.fn(async () => {
      throw new Error("down");
    });
    await expect(cached(4, "/c", failing)).rejects.toThrow("down");
    await Promise.resolve();
    expect(await text(cached(4, "/c", async () => [1]))).toBe("[1]");
  });

  it("sends a body serialised elsewhere as it is", async () => {
    expect(await text(cached(5, "/d", async () => JsonBody.fromText('{"data":[],"total":0}')))).toBe(
      '{"data":[],"total":0}',
    );
  });
});
