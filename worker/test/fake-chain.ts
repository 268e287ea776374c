import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encodeAbiParameters, keccak256, parseAbiParameters, toEventSelector, toHex } from "viem";
import { TOPICS } from "@/worker/indexer/decode";
import type { RawLog } from "@/worker/indexer/rpc";

/**
 * An in-memory chain behind a JSON-RPC server: blocks of transactions with logs built from the
 * events the indexer reads. Enough to drive the sync engine deterministically, reorgs included,
 * without a node. Balances and reserves are tracked so tests can compare with the indexed state.
 */
type Tx = { hash: string; from: string; to: string | null; value: bigint };
type Block = { number: number; hash: string; parentHash: string; timestamp: number; txs: Tx[]; logs: RawLog[] };

const word = (v: bigint) => v.toString(16).padStart(64, "0");
const topicOf = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;
/** The launchpads' event (the profile names it as FAKE_LAUNCH_EVENT). */
export const FAKE_LAUNCH_EVENT =
  "event TokenLaunched(address indexed token, address indexed pair, address indexed creator, " +
  "string name, string symbol, uint256 totalSupply)";
const TOKEN_LAUNCHED = toEventSelector(FAKE_LAUNCH_EVENT);
export const ZERO = "0x0000000000000000000000000000000000000000";
export const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

export class FakeChain {
  blocks: Block[] = [];
  private salt = 0;
  private pending: {
    tx: Tx;
    logs: Omit<RawLog, "blockNumber" | "blockHash" | "logIndex" | "transactionIndex" | "transactionHash">[];
  }[] = [];
  balances = new Map<string, bigint>();
  reserves = new Map<string, [bigint, bigint]>();
  private server?: Server;
  url = "";

  constructor(
    readonly startTime = 1_700_000_000,
    readonly chainId = 31337,
  ) {
    this.mine(); // genesis
  }

  /** Starts a transaction from `from`; the log helpers append to it. */
  tx(from: string, to: string | null = null, value = 0n) {
    const tx: Tx = {
      hash: keccak256(toHex(`tx${this.blocks.length}:${this.pending.length}:${this.salt}`)),
      from,
      to,
      value,
    };
    this.pending.push({ tx, logs: [] });
    return this;
  }

  private log(address: string, topics: string[], data: string) {
    this.pending[this.pending.length - 1].logs.push({ address, topics, data });
  }

  transfer(token: string, from: string, to: string, value: bigint) {
    this.log(token, [TOPICS.transfer, topicOf(from), topicOf(to)], `0x${word(value)}`);
    const k = (h: string) => `${token}:${h}`;
    if (from !== ZERO) this.balances.set(k(from), (this.balances.get(k(from)) ?? 0n) - value);
    if (to !== ZERO) this.balances.set(k(to), (this.balances.get(k(to)) ?? 0n) + value);
    return this;
  }
  /** A Transfer with its topics and no data: a log whose layout lies about its event. */
  malformedTransfer(token: string, from: string, to: string) {
    this.log(token, [TOPICS.transfer, topicOf(from), topicOf(to)], "0x");
    return this;
  }
  pairCreated(factory: string, token0: string, token1: string, pair: string) {
    this.log(factory, [TOPICS.pairCreated, topicOf(token0), topicOf(token1)], `0x${word(BigInt(pair))}${word(1n)}`);
    return this;
  }
  launched(
    launchpad: string,
    token: string,
    pair: string,
    creator: string,
    name: string,
    symbol: string,
    supply: bigint,
  ) {
    const data = encodeAbiParameters(parseAbiParameters("string, string, uint256"), [name, symbol, supply]);
    this.log(launchpad, [TOKEN_LAUNCHED, topicOf(token), topicOf(pair), topicOf(creator)], data);
    return this;
  }
  sync(pair: string, r0: bigint, r1: bigint) {
    this.reserves.set(pair, [r0, r1]);
    this.log(pair, [TOPICS.sync], `0x${word(r0)}${word(r1)}`);
    return this;
  }
  swap(pair: string, a0In: bigint, a1In: bigint, a0Out: bigint, a1Out: bigint, sender: string, to: string) {
    this.log(
      pair,
      [TOPICS.swap, topicOf(sender), topicOf(to)],
      `0x${word(a0In)}${word(a1In)}${word(a0Out)}${word(a1Out)}`,
    );
    return this;
  }
  mint(pair: string, sender: string, a0: bigint, a1: bigint) {
    this.log(pair, [TOPICS.mint, topicOf(sender)], `0x${word(a0)}${word(a1)}`);
    return this;
  }
  burn(pair: string, sender: string, a0: bigint, a1: bigint, to: string) {
    this.log(pair, [TOPICS.burn, topicOf(sender), topicOf(to)], `0x${word(a0)}${word(a1)}`);
    return this;
  }

  /** Mines the pending transactions `timeStep` seconds after the last block. */
  mine(timeStep = 12) {
    const number = this.blocks.length;
    const parent = this.blocks[number - 1];
    const hash = keccak256(toHex(`block${number}:${this.salt}`));
    const block: Block = {
      number,
      hash,
      parentHash: parent?.hash ?? `0x${"0".repeat(64)}`,
      timestamp: parent ? parent.timestamp + timeStep : this.startTime,
      txs: [],
      logs: [],
    };
    let logIndex = 0;
    this.pending.forEach(({ tx, logs }, i) => {
      block.txs.push(tx);
      for (const l of logs) {
        block.logs.push({
          ...l,
          blockNumber: toHex(number),
          blockHash: hash,
          transactionHash: tx.hash,
          transactionIndex: toHex(i),
          logIndex: toHex(logIndex++),
        });
      }
    });
    this.pending = [];
    this.blocks.push(block);
    return number;
  }

  /** Drops the last `depth` blocks; the next ones get other hashes (a competing branch). */
  reorg(depth: number) {
    this.blocks.splice(this.blocks.length - depth, depth);
    this.salt++;
  }

  /** Answers one JSON-RPC call, as its server does (tests may ask it in-process). */
  handle(method: string, params: unknown[]): unknown {
    switch (method) {
      case "eth_blockNumber":
        return toHex(this.blocks.length - 1);
      case "eth_chainId":
        return toHex(this.chainId);
      case "eth_getBlockByNumber": {
        const b = params[0] === "latest" ? this.blocks.at(-1) : this.blocks[Number(params[0] as string)];
        if (!b) return null;
        const full = params[1] as boolean;
        return {
          number: toHex(b.number),
          hash: b.hash,
          parentHash: b.parentHash,
          timestamp: toHex(b.timestamp),
          transactions: full
            ? b.txs.map((t) => ({ hash: t.hash, from: t.from, to: t.to, value: toHex(t.value) }))
            : b.txs.map((t) => t.hash),
        };
      }
      case "eth_getLogs": {
        const f = params[0] as { fromBlock: string; toBlock: string; address?: string[]; topics: string[][] };
        // No address: every contract's logs, as a node answers.
        const addresses = f.address && new Set(f.address.map((a) => a.toLowerCase()));
        const topics = new Set(f.topics[0]);
        return this.blocks
          .slice(Number(f.fromBlock), Number(f.toBlock) + 1)
          .flatMap((b) => b.logs.filter((l) => (!addresses || addresses.has(l.address)) && topics.has(l.topics[0])));
      }
      case "eth_feeHistory": {
        const newest = Number(params[1] as string);
        const oldest = newest - Number(params[0] as string) + 1;
        return {
          oldestBlock: toHex(oldest),
          gasUsedRatio: this.blocks.slice(oldest, newest + 1).map((b) => (b.txs.length > 0 ? 0.5 : 0)),
        };
      }
      case "eth_call":
        return `0x${word(18n)}`;
      // No account here has code: every payer of a quote token reads as a wallet.
      case "eth_getCode":
        return "0x";
      default:
        throw new Error(`unsupported ${method}`);
    }
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const parsed = JSON.parse(body);
        const one = (r: { id: number; method: string; params: unknown[] }) => {
          try {
            return { jsonrpc: "2.0", id: r.id, result: this.handle(r.method, r.params) };
          } catch (err) {
            return { jsonrpc: "2.0", id: r.id, error: { code: -32601, message: String(err) } };
          }
        };
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed)));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close() {
    await new Promise<void>((r) => this.server?.close(() => r()));
  }
}
