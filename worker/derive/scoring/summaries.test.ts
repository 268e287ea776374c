import { describe, expect, it } from "vitest";
import { deterministicSummary } from "@/lib/scoring";
import { summaryInput } from "@/lib/scoring/__fixtures__/summary";
import { SummaryUpgrades } from "./summaries";

const answer = (content: string, status = 200) =>
  (async () => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status })) as typeof fetch;

const endpoint = (fetchImpl: typeof fetch) => ({
  url: "http://llm.test/v1/chat/completions",
  model: "m",
  timeoutMs: 1_000,
  fetch: fetchImpl,
});

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("SummaryUpgrades", () => {
  it("hands over the model's summary with the hash of the figures it was written from", async () => {
    const input = summaryInput();
    const text = deterministicSummary(input); // a plausible answer: only the data's numbers
    const upgrades = new SummaryUpgrades(endpoint(answer(text)));
    upgrades.request("0xtoken", input, "hash-1");
    await settle();
    expect(upgrades.take()).toEqual([{ address: "0xtoken", factsHash: "hash-1", text }]);
    expect(upgrades.take()).toEqual([]);
  });

  it("hands over nothing when the model fails, so the deterministic text stays", async () => {
    const upgrades = new SummaryUpgrades(endpoint(answer("oops", 500)));
    upgrades.request("0xtoken", summaryInput(), "hash-1");
    await settle();
    expect(upgrades.take()).toEqual([]);
  });

  it("does nothing without an endpoint", async () => {
    const upgrades = new SummaryUpgrades(null);
    upgrades.request("0xtoken", summaryInput(), "hash-1");
    await settle();
    expect(upgrades.take()).toEqual([]);
  });
});
