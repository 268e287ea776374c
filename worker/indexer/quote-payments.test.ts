import { describe, expect, it } from "vitest";
import { TOPICS } from "@/worker/indexer/decode";
import { type RawLog, Rpc, type RpcTransport } from "@/worker/indexer/rpc";
import { ChainState } from "@/worker/indexer/state";
import { fakeProfile } from "@/worker/test/fake-market";
import { firstPaymentsOf } from "./quote-payments";

const WETH = fakeProfile.quoteTokens[0].address;
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const topicOf = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;
const [alice, bob, carol, dave, router, pool, delegated, funder] = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => addr(0xa00 + n));

let logIndex = 0;
const transfer = (block: number, from: string, to: string, value = 1n): RawLog => ({
  address: WETH,
  topics: [TOPICS.transfer, topicOf(from), topicOf(to)],
  data: `0x${value.toString(16).padStart(64, "0")}`,
  blockNumber: `0x${block.toString(16)}`,
  blockHash: `0x${"b".repeat(64)}`,
  transactionHash: `0x${(++logIndex).toString(16).padStart(64, "0")}`,
  transactionIndex: "0x0",
  logIndex: `0x${logIndex.toString(16)}`,
  removed: false,
});

/** A node answering eth_getCode: the router has code, the delegated account an EIP-7702 delegation, the rest none. */
function node() {
  const asked: string[] = [];
  const code = (a: string) => (a === router ? "0x6080" : a === delegated ? `0xef0100${"11".repeat(20)}` : "0x");
  const answer = (r: { id: number; method: string; params: unknown[] }) => {
    asked.push(r.params[0] as string);
    return { jsonrpc: "2.0", id: r.id, result: code(r.params[0] as string) };
  };
  const request = async ({
    body,
  }: {
    body: { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
  }) => (Array.isArray(body) ? body.map(answer) : answer(body));
  return { rpc: new Rpc({ transport: { request } as RpcTransport }), asked };
}

describe("first quote-token payments", () => {
  it("keep each recipient's first payment from an account without code", async () => {
    const state = new ChainState(fakeProfile);
    state.addPool({
      address: pool,
      protocol: "uniswap-v2",
      token0: addr(1),
      token1: WETH,
      reserve0: 0n,
      reserve1: 0n,
      sqrtPriceX96: 0n,
      tick: 0,
      liquidity: 0n,
      createdBlock: 1,
    });
    const { rpc, asked } = node();
    const payments = await firstPaymentsOf(rpc, state, [
      transfer(5, pool, alice), // a swap's output: the pool is known, no question asked
      transfer(6, router, alice), // a contract: not a funder
      transfer(7, funder, alice), // alice's funder
      transfer(8, carol, alice), // later: not the first
      transfer(6, delegated, bob), // a delegated account is still an account
      transfer(9, funder, carol, 0n), // nothing paid
      transfer(9, dave, pool), // into a pool: funds no wallet
      transfer(9, router, dave), // the router again: known by now, not asked twice
    ]);
    expect(payments.map((p) => [p.recipient, p.sender, p.block])).toEqual([
      [bob, delegated, 6],
      [alice, funder, 7],
    ]);
    expect(asked.filter((a) => a === router)).toHaveLength(1);
    expect(asked).not.toContain(pool);
  });
});
