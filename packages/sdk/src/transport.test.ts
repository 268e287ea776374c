import { describe, expect, it } from "vitest";
import { OnchainIntelConnectionError, OnchainIntelTimeoutError } from "./errors";
import { backoffMs, type RetryEvent, retryWaitMs, send, type TransportOptions } from "./transport";

const limits = { maxRetryWait: 65_000, random: () => 0.5 };
const answer = (status: number, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : "{}", { status, headers });

/** A transport over a scripted fetch: each request takes the next step (a status, or an error to throw). */
function scripted(steps: (number | Error)[]) {
  const seen: string[] = [];
  const waits: RetryEvent[] = [];
  const t: TransportOptions = {
    fetch: async (request) => {
      seen.push(request.method);
      const step = steps.shift();
      if (step instanceof Error) throw step;
      return answer(step ?? 200, step === 429 ? { "Retry-After": "3" } : {});
    },
    timeout: 1_000,
    maxRetries: 3,
    sleep: async () => {},
    onRetry: (e) => waits.push(e),
    ...limits,
  };
  return { t, seen, waits };
}

describe("retry policy", () => {
  it("waits a 429's Retry-After exactly, for any method, unless it is longer than maxRetryWait", () => {
    expect(retryWaitMs(answer(429, { "Retry-After": "17" }), "POST", 0, limits)).toBe(17_000);
    expect(retryWaitMs(answer(429, { "Retry-After": "86400" }), "GET", 0, limits)).toBeNull();
  });

  it("backs off from server errors only for idempotent methods, never from other answers", () => {
    expect(retryWaitMs(answer(503), "GET", 0, limits)).toBe(backoffMs(0, limits.random));
    expect(retryWaitMs(answer(500), "DELETE", 1, limits)).toBe(backoffMs(1, limits.random));
    expect(retryWaitMs(answer(503), "POST", 0, limits)).toBeNull();
    for (const status of [200, 204, 400, 401, 403, 404])
      expect(retryWaitMs(answer(status), "GET", 0, limits)).toBeNull();
  });

  it("draws the backoff between half and all of an exponential ceiling of 8 s at most", () => {
    expect([0, 1, 2].map((r) => backoffMs(r, () => 0))).toEqual([250, 500, 1000]);
    expect([0, 1, 2].map((r) => backoffMs(r, () => 1))).toEqual([500, 1000, 2000]);
    expect(backoffMs(10, () => 1)).toBe(8_000);
  });
});

describe("send", () => {
  it("retries a GET through server errors and lost connections, then answers", async () => {
    const { t, seen, waits } = scripted([503, new TypeError("socket hang up"), 200]);
    expect((await send(new Request("http://x/v1/tokens"), t)).status).toBe(200);
    expect(seen).toEqual(["GET", "GET", "GET"]);
    expect(waits.map((w) => w.reason)).toEqual(["server_error", "network_error"]);
  });

  it("sends a POST once after a server error or a lost connection, and again after a 429", async () => {
    const post = () => new Request("http://x/v1/alerts", { method: "POST", body: "{}" });
    const failed = scripted([503]);
    expect((await send(post(), failed.t)).status).toBe(503);
    const lost = scripted([new TypeError("reset")]);
    await expect(send(post(), lost.t)).rejects.toBeInstanceOf(OnchainIntelConnectionError);
    const limited = scripted([429, 201]);
    expect((await send(post(), limited.t)).status).toBe(201);
    expect(limited.waits).toMatchObject([{ reason: "rate_limited", waitMs: 3_000, status: 429 }]);
  });

  it("gives the last answer once maxRetries is spent (per call over the client's)", async () => {
    const { t, seen } = scripted([503, 503, 503]);
    expect((await send(new Request("http://x/v1/tokens"), t, { maxRetries: 1 })).status).toBe(503);
    expect(seen).toHaveLength(2);
  });

  it("times an attempt out, and stops at once on the caller's abort, even when the fetch ignores its signal", async () => {
    const sent: Request[] = [];
    const hang: TransportOptions = {
      ...scripted([]).t,
      maxRetries: 0,
      fetch: (request) => {
        sent.push(request);
        return new Promise(() => {});
      },
    };
    await expect(send(new Request("http://x/v1/tokens"), hang, { timeout: 5 })).rejects.toBeInstanceOf(
      OnchainIntelTimeoutError,
    );
    const controller = new AbortController();
    const call = send(new Request("http://x/v1/tokens"), { ...hang, timeout: 60_000 }, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    expect(sent.map((r) => r.signal.aborted)).toEqual([true, true]);
  });
});
