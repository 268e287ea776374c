import { describe, expect, it } from "vitest";
import { addr, FakeChain, ZERO } from "@/worker/test/fake-chain";
import { fakeProfile as profile } from "@/worker/test/fake-market";
import { fetchRange } from "./fetch";
import type { LogReadPlan } from "./log-reads";
import { Rpc, type RpcTransport } from "./rpc";
import { ChainState } from "./state";

const E18 = 10n ** 18n;
const WETH = profile.weth;
const FACTORY = profile.factories[0].address;
const LAUNCHPAD = profile.launchpads[0].address;
const [token, pair, trader, creator, funder, stranger] = [0x1001, 0x2001, 0x901, 0x501, 0x902, 0x3001].map(addr);

/** A launch and a buy, a funding payment in the quote token, and a contract nobody watches that emits our topics. */
function chain() {
  const c = new FakeChain();
  const supply = 1_000_000n * E18;
  c.tx(creator)
    .pairCreated(FACTORY, token, WETH, pair)
    .transfer(token, ZERO, pair, supply)
    .sync(pair, supply, 10n * E18)
    .launched(LAUNCHPAD, token, pair, creator, "Token", "TKN", supply);
  c.tx(stranger).pairCreated(stranger, stranger, WETH, addr(0x2002)).transfer(stranger, ZERO, trader, E18);
  c.mine();
  c.tx(funder).transfer(WETH, funder, trader, E18);
  c.tx(trader)
    .transfer(token, pair, trader, 1_000n * E18)
    .sync(pair, supply - 1_000n * E18, 11n * E18)
    .swap(pair, 0n, E18, 1_000n * E18, 0n, trader, trader)
    .swap(stranger, 0n, E18, E18, 0n, trader, trader);
  c.mine();
  return c;
}

/** An RPC client answered by `c` in-process, counting the requests by method. */
function rpcOf(c: FakeChain) {
  const asked: string[] = [];
  type Req = { id: number; method: string; params: unknown[] };
  const answer = (r: Req) => (asked.push(r.method), { jsonrpc: "2.0", id: r.id, result: c.handle(r.method, r.params) });
  const request = async ({ body }: { body: Req | Req[] }) => (Array.isArray(body) ? body.map(answer) : answer(body));
  return { rpc: new Rpc({ transport: { request } as RpcTransport }), asked };
}

describe("fetchRange", () => {
  it("reads a live range's logs in one request and keeps what the node's filters keep", async () => {
    const c = chain();
    const head = c.blocks.length - 1;
    const filtered = rpcOf(c);
    const byNode = await fetchRange(filtered.rpc, new ChainState(profile), profile, 1, head, false);
    const live = rpcOf(c);
    const here = await fetchRange(live.rpc, new ChainState(profile), profile, 1, head, true);

    expect(live.asked.filter((m) => m === "eth_getLogs")).toHaveLength(1);
    expect(filtered.asked.filter((m) => m === "eth_getLogs").length).toBeGreaterThan(1);
    for (const key of ["logs", "tokens", "pools", "quotePayments", "quarantined"] as const) {
      expect(here[key], key).toEqual(byNode[key]);
    }
    expect(here.logs.length).toBeGreaterThan(0);
    expect(here.logs.map((l) => l.address)).not.toContain(stranger);
    expect(here.pools.map((p) => p.address)).toEqual([pair]);
    expect(here.quotePayments.map((p) => [p.sender, p.recipient])).toEqual([[funder, trader]]);
  });

  it("reads a backfill range by topic as by address, and measures the share of what it carried", async () => {
    const c = chain();
    const head = c.blocks.length - 1;
    const measures: [number, number][] = [];
    const plan = (byTopic: boolean, probeTo: number | null): LogReadPlan => ({
      byTopic,
      read: 0,
      probeTo,
      measured: (read, ours) => measures.push([read, ours]),
    });
    const byAddress = rpcOf(c);
    const probed = await fetchRange(byAddress.rpc, new ChainState(profile), profile, 1, head, false, plan(false, head));
    const byTopic = rpcOf(c);
    const read = await fetchRange(byTopic.rpc, new ChainState(profile), profile, 1, head, false, plan(true, null));

    for (const key of ["logs", "tokens", "pools", "fundings", "quotePayments", "quarantined"] as const) {
      expect(read[key], key).toEqual(probed[key]);
    }
    expect(byTopic.asked.filter((m) => m === "eth_getLogs")).toHaveLength(1);
    expect([...read.blocks.keys()]).toEqual([...probed.blocks.keys()]);
    // Carried and left out: the stranger's Transfer and Swap, and WETH's Transfer (a quote token's, read as a payment).
    expect(measures).toEqual([
      [8, 5],
      [8, 5],
    ]);
  });
});
