import type { HttpRpcClient } from "viem/utils";
import { getHttpRpcClient } from "viem/utils";
import { log } from "@/lib/log";
import { sleep } from "../sleep";

/** A log as eth_getLogs returns it (hex quantities). */
export type RawLog = {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed?: boolean;
};

export type RawTransaction = { hash: string; from: string; to: string | null; value: string };
export type RawBlock = {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: RawTransaction[];
};

export type RpcRequest = { method: string; params: unknown[] };

/** One JSON-RPC message in, its answer out: a single request or a batch, as a node takes them over HTTP. */
export type RpcTransport = Pick<HttpRpcClient, "request">;

export type RpcOptions = {
  /** The node's HTTP endpoint, or `transport`: a node in the same process, answering without HTTP and JSON. */
  url?: string;
  transport?: RpcTransport;
  /** Per HTTP request; a hung provider counts as a fault and is retried. */
  timeoutMs?: number;
  /** Attempts per request before the error reaches the sync loop (which starts over later). */
  maxAttempts?: number;
  /** JSON-RPC batch size for block and call batches. */
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  /** Addresses per eth_getLogs filter (providers limit its size). */
  addressChunkSize?: number;
  signal?: AbortSignal;
};

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const CALL_OUTCOME = /revert|vm exception|invalid opcode|out of gas|missing trie node/i;

/**
 * Whether an eth_call's error is the call's outcome, not a fault of the request: the EVM reverted
 * (or hit an invalid opcode, ran out of gas), or the node keeps no state at that block. Nodes word
 * it differently (Hardhat: -32603 with the revert data; geth: 3 with data, or -32000 "execution
 * reverted"); any other error, an internal one without those words included, is retried.
 */
const isCallOutcome = (e: JsonRpcError) => e.code === 3 || typeof e.data === "string" || CALL_OUTCOME.test(e.message);

export const toHex = (n: number) => `0x${n.toString(16)}`;

const RANGE_ERROR = new RegExp(
  [
    "block range",
    "range (is )?too (large|wide|big)",
    "exceed(s|ed)? (the )?max",
    "more than \\d+ (results|logs)",
    "too many (results|logs)",
    "response (size|is too big)",
    "limit exceeded",
    "query returned more than",
  ].join("|"),
  "i",
);

/** Provider errors that ask for a smaller eth_getLogs range rather than a retry. */
export function isRangeLimitError(err: unknown): boolean {
  return err instanceof Error && RANGE_ERROR.test(errorText(err));
}

/**
 * The last block of a range the provider says will work, when its message names one:
 * "[0x10, 0x2f]" (a range to use) or "up to a 500 block range" / "limit of 500 blocks" (a size).
 */
export function suggestedRangeEnd(err: unknown, from: number, to: number): number | undefined {
  const text = errorText(err);
  const pair = text.match(/\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i);
  if (pair) {
    const end = Number.parseInt(pair[2], 16);
    if (Number.parseInt(pair[1], 16) === from && end >= from && end < to) return end;
  }
  const size = text.match(
    /(?:up to|limit(?:ed)? (?:of|to|is)|max(?:imum)?(?: block)? range(?: of| is)?:?)\s*a?\s*(\d+)(k?)\b/i,
  );
  if (size) {
    const n = Number(size[1]) * (size[2] ? 1_000 : 1);
    if (n >= 1 && from + n - 1 < to) return from + n - 1;
  }
  return undefined;
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const details = (err as { details?: string }).details;
  return `${err.message} ${details ?? ""}`;
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

/**
 * JSON-RPC over viem's HTTP client: retries with exponential backoff and jitter on any fault
 * (network, timeout, HTTP status, JSON-RPC error), batches, and an eth_getLogs that adapts its
 * range to the provider's limits. Range-limit errors are not retried as they are: the range splits.
 */
export class Rpc {
  private readonly client: RpcTransport;
  private nextId = 1;
  private readonly maxAttempts: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  /** Addresses per eth_getLogs filter. */
  readonly addressChunkSize: number;
  private readonly signal?: AbortSignal;
  /** The largest getLogs range the provider accepted since its last range complaint. */
  rangeLimit = Number.POSITIVE_INFINITY;

  constructor(opts: RpcOptions) {
    if (!opts.transport === !opts.url) throw new Error("an Rpc takes either a url or a transport");
    this.client =
      opts.transport ?? getHttpRpcClient(opts.url!, { timeout: opts.timeoutMs ?? 30_000, maxResponseBodySize: false });
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.batchSize = opts.batchSize ?? 200;
    this.concurrency = opts.concurrency ?? 4;
    this.addressChunkSize = opts.addressChunkSize ?? 1_000;
    this.signal = opts.signal;
  }

  private async withRetry<T>(
    what: string,
    fn: () => Promise<T>,
    retryable = (e: unknown) => !isRangeLimitError(e),
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (attempt >= this.maxAttempts || !retryable(err) || this.signal?.aborted) throw err;
        const delay = Math.min(5_000, 100 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
        log.debug("rpc retry", { what, attempt, delay: Math.round(delay), error: errorText(err).slice(0, 200) });
        await sleep(delay, this.signal);
      }
    }
  }

  async call<T>(method: string, params: unknown[]): Promise<T> {
    return this.withRetry(method, async () => {
      const res = await this.client.request({ body: { jsonrpc: "2.0", id: this.nextId++, method, params } });
      if (res.error) throw new JsonRpcError(res.error.code, res.error.message, res.error.data);
      return res.result as T;
    });
  }

  /** Many calls as JSON-RPC batches; a batch with any failed entry is retried as a whole. */
  batch<T>(requests: RpcRequest[]): Promise<T[]> {
    return this.runBatches(requests, false) as Promise<T[]>;
  }

  /**
   * As `batch`, but an entry's own outcome (isCallOutcome: a revert) is its answer; any other error retries the batch.
   */
  batchSettled<T>(requests: RpcRequest[]): Promise<(T | JsonRpcError)[]> {
    return this.runBatches(requests, true) as Promise<(T | JsonRpcError)[]>;
  }

  private async runBatches(requests: RpcRequest[], settle: boolean): Promise<unknown[]> {
    const chunks: RpcRequest[][] = [];
    for (let i = 0; i < requests.length; i += this.batchSize) chunks.push(requests.slice(i, i + this.batchSize));
    const results = await mapLimit(chunks, this.concurrency, (chunk) =>
      this.withRetry(`batch ${chunk[0].method}`, async () => {
        const body = chunk.map((r) => ({
          jsonrpc: "2.0" as const,
          id: this.nextId++,
          method: r.method,
          params: r.params,
        }));
        const res = await this.client.request({ body });
        if (!Array.isArray(res)) throw new Error("batch answered with a single response");
        const byId = new Map(res.map((r) => [r.id, r]));
        return body.map((b) => {
          const r = byId.get(b.id);
          if (!r) throw new Error(`batch response misses id ${b.id}`);
          if (!r.error) return r.result;
          const error = new JsonRpcError(r.error.code, r.error.message, r.error.data);
          if (settle && isCallOutcome(error)) return error;
          throw error;
        });
      }),
    );
    return results.flat();
  }

  blockNumber = async () => Number(await this.call<string>("eth_blockNumber", []));

  getBlocks = (numbers: number[], withTransactions: boolean) =>
    this.batch<RawBlock | null>(
      numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [toHex(n), withTransactions] })),
    );

  /**
   * Logs of `addresses` (chunked; null: of every contract) in [from, to], splitting the range
   * whenever the provider refuses it.
   */
  async getLogs(
    from: number,
    to: number,
    addresses: string[] | null,
    topics: (string | string[] | null)[],
  ): Promise<RawLog[]> {
    if (addresses === null) return this.logsInRange(from, to, null, topics);
    if (addresses.length === 0) return [];
    const chunks: RawLog[][] = [];
    for (let i = 0; i < addresses.length; i += this.addressChunkSize) {
      chunks.push(await this.logsInRange(from, to, addresses.slice(i, i + this.addressChunkSize), topics));
    }
    // Not push(...logs): a busy range has more logs than a call may take arguments.
    return chunks.flat();
  }

  private async logsInRange(
    from: number,
    to: number,
    address: string[] | null,
    topics: (string | string[] | null)[],
  ): Promise<RawLog[]> {
    try {
      return await this.call<RawLog[]>("eth_getLogs", [
        { fromBlock: toHex(from), toBlock: toHex(to), ...(address && { address }), topics },
      ]);
    } catch (err) {
      if (!isRangeLimitError(err) || from === to) throw err;
      const end = suggestedRangeEnd(err, from, to) ?? Math.floor((from + to) / 2);
      this.rangeLimit = Math.min(this.rangeLimit, end - from + 1);
      log.debug("getLogs range split", { from, to, end });
      return [
        ...(await this.logsInRange(from, end, address, topics)),
        ...(await this.logsInRange(end + 1, to, address, topics)),
      ];
    }
  }
}
