import { describe, expect, it } from "vitest";
import { HostBreaker, webhookHost } from "./host-breaker";

describe("host circuit breaker", () => {
  it("opens after the threshold of failures in a row, lets one trial through after the cooldown, doubles it on failure", () => {
    let now = 0;
    const breaker = new HostBreaker({ threshold: 3, cooldownMs: 1_000, now: () => now });
    breaker.failed("a.example");
    breaker.failed("a.example");
    expect(breaker.allows("a.example")).toBe(true);
    breaker.failed("a.example");
    expect(breaker.allows("a.example")).toBe(false);
    expect(breaker.allows("b.example")).toBe(true);

    now = 1_000;
    expect(breaker.allows("a.example")).toBe(true);
    breaker.failed("a.example"); // the trial failed
    now = 2_999;
    expect(breaker.allows("a.example")).toBe(false);
    now = 3_000;
    expect(breaker.allows("a.example")).toBe(true);
    breaker.succeeded("a.example");
    breaker.failed("a.example");
    expect(breaker.allows("a.example")).toBe(true);
  });

  it("keys on host and port", () => {
    expect(webhookHost("https://hooks.example:8443/a?b")).toBe("hooks.example:8443");
    expect(webhookHost("not a url")).toBe("not a url");
  });
});
