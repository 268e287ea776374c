import { describe, expect, it } from "vitest";
import { addr } from "@/worker/test/fake-chain";
import { fakeProfile } from "@/worker/test/fake-market";
import type { ChainLog } from "./decode";
import { decodeLog, logRef, TOPICS } from "./decode";
import { compileLaunchEvent } from "./launch-event";
import { EntityError, isPoisonCandidate, writeIsolating } from "./quarantine";
import type { RangeData } from "./range";
import type { RawLog } from "./rpc";
import { ChainState } from "./state";

const TOKENS = [1, 2, 3, 4, 5, 6, 7].map((n) => addr(0x7000 + n));
const WALLET = addr(0x9999);

function range(): { data: RangeData; state: ChainState } {
  const state = new ChainState(fakeProfile);
  for (const t of TOKENS) state.addToken({ address: t, decimals: 18, createdBlock: 1 });
  const logs: ChainLog[] = TOKENS.flatMap((token, i) =>
    [0, 1].map((k) => ({
      kind: "transfer" as const,
      block: 10 + k,
      logIndex: i,
      txHash: `0x${i}${k}`,
      txIndex: 0,
      blockHash: "0x",
      address: token,
      from: WALLET,
      to: WALLET,
      value: 1n,
    })),
  );
  logs.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
  const data: RangeData = {
    from: 10,
    to: 11,
    logs,
    blocks: new Map(),
    tokens: [],
    pools: [],
    fundings: [],
    quotePayments: [],
    quarantined: [],
  };
  return { data, state };
}

/** A database error as postgres.js reports it. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("writeIsolating", () => {
  it("traces a data error to the one token causing it, quarantines it for the range, writes the rest", async () => {
    const { data, state } = range();
    const poison = TOKENS[4];
    let trials = 0;
    const written = await writeIsolating(data, state, async (d, dryRun) => {
      if (dryRun) trials++;
      if (d.logs.some((l) => l.address === poison))
        throw pgError("22021", 'invalid byte sequence for encoding "UTF8": 0x00');
      return d.logs.map((l) => l.address);
    });
    expect(new Set(written)).toEqual(new Set(TOKENS.filter((t) => t !== poison)));
    expect(data.quarantined).toEqual([
      expect.objectContaining({
        kind: "token",
        address: poison,
        block: 10,
        logIndex: 4,
        whole: true,
        reason: expect.stringContaining("invalid byte sequence"),
      }),
    ]);
    // Bisection: a handful of trial writes, not one per token.
    expect(trials).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(TOKENS.length)) + 1);
  });

  it("quarantines every poisoned token, one round each", async () => {
    const { data, state } = range();
    const poisoned = [TOKENS[0], TOKENS[6]];
    await writeIsolating(data, state, async (d) => {
      if (d.logs.some((l) => poisoned.includes(l.address))) throw pgError("22003", "numeric field overflow");
    });
    expect(data.quarantined.map((q) => q.address).sort()).toEqual([...poisoned].sort());
    expect(data.logs.some((l) => poisoned.includes(l.address))).toBe(false);
  });

  it("quarantines what an EntityError names without trial writes", async () => {
    const { data, state } = range();
    let calls = 0;
    await writeIsolating(data, state, async (d, dryRun) => {
      calls++;
      expect(dryRun).toBe(false);
      if (d.logs.some((l) => l.address === TOKENS[2]))
        throw new EntityError([{ kind: "token", address: TOKENS[2], reason: "lies" }]);
    });
    expect(calls).toBe(2);
    expect(data.quarantined).toEqual([expect.objectContaining({ address: TOKENS[2], reason: "lies", whole: true })]);
  });

  it("throws global failures and data errors no token explains, quarantining nothing", async () => {
    for (const err of [
      pgError("08006", "connection failure"),
      new Error("fetch failed"),
      pgError("57P01", "terminating connection"),
    ]) {
      const { data, state } = range();
      await expect(writeIsolating(data, state, async () => Promise.reject(err))).rejects.toBe(err);
      expect(data.quarantined).toEqual([]);
    }
    const { data, state } = range();
    const always = pgError("23505", "duplicate key value violates unique constraint");
    await expect(writeIsolating(data, state, async () => Promise.reject(always))).rejects.toBe(always);
    expect(data.quarantined).toEqual([]);
  });

  it("tells data errors from global ones", () => {
    expect(isPoisonCandidate(pgError("22021", "x"))).toBe(true);
    expect(isPoisonCandidate(pgError("23505", "x"))).toBe(true);
    expect(isPoisonCandidate(new RangeError("Invalid array length"))).toBe(true);
    expect(isPoisonCandidate(new TypeError("Cannot read properties of undefined"))).toBe(true);
    expect(isPoisonCandidate(new TypeError("fetch failed"))).toBe(false);
    expect(isPoisonCandidate(pgError("53300", "too many connections"))).toBe(false);
    expect(isPoisonCandidate(new Error("timeout"))).toBe(false);
  });
});

describe("decodeLog", () => {
  const raw = (topics: string[], data: string): RawLog => ({
    address: TOKENS[0].toUpperCase().replace("0X", "0x"),
    topics,
    data,
    blockNumber: "0x10",
    blockHash: "0x01",
    transactionHash: "0x02",
    transactionIndex: "0x0",
    logIndex: "0x3",
  });
  const topic = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;
  const word = (v: bigint) => v.toString(16).padStart(64, "0");

  it("decodes the events it reads, from the lowest 20 bytes of address words", () => {
    const dirty = `0x${"ff".repeat(12)}${WALLET.slice(2)}`;
    expect(decodeLog(raw([TOPICS.transfer, dirty, topic(WALLET)], `0x${word(2n ** 256n - 1n)}`))).toMatchObject({
      kind: "transfer",
      address: TOKENS[0],
      from: WALLET,
      to: WALLET,
      value: 2n ** 256n - 1n,
    });
    // Early ERC-20s: nothing indexed.
    expect(decodeLog(raw([TOPICS.transfer], `0x${word(BigInt(WALLET))}${word(5n)}${word(7n)}`))).toMatchObject({
      kind: "transfer",
      from: WALLET,
      to: addr(5),
      value: 7n,
    });
    expect(decodeLog(raw([TOPICS.transfer, topic(WALLET)], `0x${word(5n)}${word(7n)}`))).toMatchObject({
      kind: "transfer",
      from: WALLET,
      to: addr(5),
      value: 7n,
    });
  });

  it("decodes a locker's Locked: the position, its owner and whether the owner can take it out", () => {
    const locked = (withdrawable: bigint) =>
      decodeLog(raw([TOPICS.locked, topic(addr(9)), topic(WALLET)], `0x${word(withdrawable)}`));
    expect(locked(1n)).toMatchObject({ kind: "locked", tokenId: BigInt(addr(9)), owner: WALLET, withdrawable: true });
    expect(locked(0n)).toMatchObject({ kind: "locked", withdrawable: false });
  });

  it("ignores other events; reads an ERC-721 Transfer as an NFT transfer (fetch keeps position managers' only)", () => {
    expect(decodeLog(raw([`0x${"12".repeat(32)}`], "0x"))).toBeNull();
    expect(decodeLog(raw([TOPICS.transfer, topic(WALLET), topic(WALLET), topic(addr(1))], "0x"))).toMatchObject({
      kind: "nftTransfer",
      tokenId: 1n,
    });
  });

  it("reports our topics in another layout as malformed, never throws", () => {
    const cases: [string[], string][] = [
      [[TOPICS.transfer, topic(WALLET), topic(WALLET)], "0x"],
      [[TOPICS.transfer, topic(WALLET)], `0x${word(1n)}`],
      [[TOPICS.swap, topic(WALLET), topic(WALLET)], `0x${word(1n)}${word(1n)}`],
      [[TOPICS.sync], `0x${word(1n)}`],
      [[TOPICS.sync], "0xzz"],
      [[TOPICS.mint, "0x1234"], `0x${word(1n)}${word(1n)}`],
    ];
    for (const [topics, data] of cases)
      expect(decodeLog(raw(topics, data))).toMatchObject({
        kind: "malformed",
        reason: expect.stringMatching(/^malformed /),
      });
    const launch = compileLaunchEvent(fakeProfile.launchpads[0]);
    for (const [topics, data] of [
      [[launch.topic0, topic(WALLET), topic(WALLET)], `0x${word(1n)}${word(1n)}${word(1n)}`],
      [[launch.topic0, topic(WALLET), topic(WALLET), topic(WALLET)], `0x${word(1n)}`],
      [[launch.topic0, topic(WALLET), "0x12", topic(WALLET)], `0x${word(1n)}${word(1n)}${word(1n)}`],
    ] as [string[], string][]) {
      expect(launch.decode(logRef(raw(topics, data)), topics, data)).toMatchObject({
        kind: "malformed",
        reason: expect.stringMatching(/^malformed TokenLaunched/),
      });
    }
  });

  it("decodes launch strings leniently: a broken string is null, not an exception", () => {
    const launch = compileLaunchEvent(fakeProfile.launchpads[0]);
    const topics = [launch.topic0, topic(addr(1)), topic(addr(2)), topic(addr(3))];
    const data = `0x${word(10_000n)}${word(10_000n)}${word(5n)}`;
    expect(launch.decode(logRef(raw(topics, data)), topics, data)).toMatchObject({
      kind: "tokenLaunched",
      token: addr(1),
      pair: addr(2),
      creator: addr(3),
      name: null,
      symbol: null,
    });
  });

  it("reads a launchpad's event from its signature, by parameter name, in any order", () => {
    const pad = {
      address: addr(5),
      name: "Other",
      protocol: "uniswap-v3" as const,
      event: "Launched(address indexed creator, string symbol, address token, uint24 fee, string name)",
    };
    const launch = compileLaunchEvent(pad);
    const data =
      `0x${word(128n)}${word(BigInt(addr(7)))}${word(3000n)}${word(192n)}` +
      `${word(2n)}${"4142".padEnd(64, "0")}${word(3n)}${"414243".padEnd(64, "0")}`;
    const topics = [launch.topic0, topic(addr(9))];
    expect(launch.decode(logRef(raw(topics, data)), topics, data)).toMatchObject({
      kind: "tokenLaunched",
      token: addr(7),
      pair: null,
      creator: addr(9),
      name: { text: "ABC" },
      symbol: { text: "AB" },
    });
    expect(() => compileLaunchEvent({ ...pad, event: "Launched(address creator)" })).toThrow(/names no token/);
    expect(() => compileLaunchEvent({ ...pad, event: "Launched(uint256 token)" })).toThrow(
      /token is uint256, address expected/,
    );
    expect(() => compileLaunchEvent({ ...pad, event: "Launched(address token" })).toThrow(/cannot parse/);
  });
});
