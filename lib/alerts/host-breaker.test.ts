import { describe, expect, it } from "vitest";
import { breakerKey, HostBreaker, webhookDomain } from "./host-breaker";

describe("host circuit breaker", () => {
  it("opens after threshold failures in a row, lets one trial through after a cooldown, doubles it on failure", () => {
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

  it("keys on the account and the registrable domain: subdomains and ports of one receiver are one target", () => {
    expect(webhookDomain("https://hooks.example.com:8443/a?b")).toBe("example.com");
    expect(webhookDomain("https://x7.tarpit.evil.co.uk/h")).toBe("evil.co.uk");
    // Private suffixes too: apps of a shared host are domains of their own.
    expect(webhookDomain("https://one.ngrok-free.app/h")).toBe("one.ngrok-free.app");
    expect(webhookDomain("https://8.8.8.8:444/h")).toBe("8.8.8.8");
    expect(webhookDomain("https://[2001:db8::1]/h")).toBe("[2001:db8::1]");
    expect(webhookDomain("not a url")).toBe("not a url");
    const minted = ["https://a1.evil.example/h", "https://zz.b2.evil.example:9000/other"].map((u) =>
      breakerKey("acct_1", u),
    );
    expect(new Set(minted).size).toBe(1);
    expect(breakerKey("acct_2", "https://a1.evil.example/h")).not.toBe(minted[0]);
  });
});
