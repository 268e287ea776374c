/**
 * Turns the simulator's blocks into JSON-RPC batches. Every 2-second slot of the timeline is one
 * block: slots without transactions are mined in bulk (`hardhat_mine` with an interval, constant
 * time), a slot with transactions is its transactions followed by `evm_mine(timestamp)`. Several
 * blocks go in one batch, and the next batch is built while the node executes the last one.
 *
 * No receipts are awaited: after each batch the block number, the empty mempool and the reserves of
 * every pair the batch touched are compared with the ledger, so a transaction that reverted (a
 * simulator bug) stops the run at once instead of silently corrupting the ground truth.
 */
import { decodeAbiParameters, decodeErrorResult, type Address, type Hex } from "viem";
import { toQuantity } from "../encoding";
import { RpcClient, type RpcCall } from "../rpc";

export interface TxRequest {
  from: Address;
  to: Address;
  nonce: number;
  gas: bigint;
  data?: Hex;
  value?: bigint;
  /** What the transaction does, for error messages. */
  label: string;
}

export interface WriterOptions {
  startTimestamp: number;
  slotSeconds: number;
  /** Number of the last block before slot 0. */
  blockBeforeStart: number;
  /** The ledger's reserves of a pair now, as (reserve0, reserve1). */
  expectedReserves(pair: Address): [bigint, bigint];
}

const GET_RESERVES = "0x0902f1ac";
/** Sum of transaction gas limits allowed in one block: below half the 1e9 block gas limit, so the
 * EIP-1559 base fee never rises above zero and free transactions stay valid. */
const BLOCK_GAS_BUDGET = 450_000_000n;
const MAX_BATCH_CALLS = 600;
const MAX_BATCH_BLOCKS = 200;

interface Batch {
  calls: RpcCall[];
  /** What each transaction does, by `${from}:${nonce}`, for error messages. */
  labels: Map<string, string>;
  firstBlock: number;
  lastBlock: number;
  reserves: [Address, bigint, bigint][];
}

export class ChainWriter {
  private readonly rpc: RpcClient;
  private calls: RpcCall[] = [];
  private labels = new Map<string, string>();
  private batchStart: number;
  private blocksInBatch = 0;
  private touched = new Set<Address>();
  private openSlot: number | undefined;
  private blockGas = 0n;
  private lastSlot = -1;
  private inFlight: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  txCount = 0;

  constructor(
    rpcUrl: string,
    private readonly options: WriterOptions,
  ) {
    this.rpc = new RpcClient(rpcUrl);
    this.batchStart = this.blockOf(0);
  }

  blockOf(slot: number): number {
    return this.options.blockBeforeStart + 1 + slot;
  }

  timestampOf(slot: number): number {
    return this.options.startTimestamp + slot * this.options.slotSeconds;
  }

  /** The last slot mined (or queued to be mined); -1 before the first. */
  get minedSlot(): number {
    return this.lastSlot;
  }

  /** Opens the block of `slot`, first mining the empty blocks of the slots skipped since the last one. */
  beginBlock(slot: number): void {
    if (this.openSlot !== undefined) throw new Error("writer: a block is already open");
    if (slot <= this.lastSlot) throw new Error(`writer: slot ${slot} is not after ${this.lastSlot}`);
    this.mineEmpty(slot - 1);
    this.openSlot = slot;
    this.blockGas = 0n;
  }

  /** A non-transaction call (balance set-up, impersonation) placed at this point of the block. */
  call(method: string, params: unknown[]): void {
    this.calls.push({ method, params });
  }

  send(tx: TxRequest): void {
    if (this.openSlot === undefined) throw new Error("writer: no open block");
    this.blockGas += tx.gas;
    if (this.blockGas > BLOCK_GAS_BUDGET) throw new Error(`writer: block of slot ${this.openSlot} is over its gas budget`);
    this.calls.push({
      method: "eth_sendTransaction",
      params: [
        {
          from: tx.from,
          to: tx.to,
          data: tx.data,
          value: toQuantity(tx.value ?? 0n),
          gas: toQuantity(tx.gas),
          gasPrice: "0x0",
          nonce: toQuantity(tx.nonce),
        },
      ],
    });
    this.labels.set(`${tx.from}:${tx.nonce}`, tx.label);
    this.txCount++;
  }

  /** Marks a pair whose reserves this batch changes, to be checked against the chain. */
  touch(pair: Address): void {
    this.touched.add(pair);
  }

  /** Mines the open block; sends the batch once it is big enough. */
  async endBlock(): Promise<void> {
    if (this.openSlot === undefined) throw new Error("writer: no open block");
    this.call("evm_mine", [this.timestampOf(this.openSlot)]);
    this.lastSlot = this.openSlot;
    this.openSlot = undefined;
    this.blocksInBatch++;
    if (this.calls.length >= MAX_BATCH_CALLS || this.blocksInBatch >= MAX_BATCH_BLOCKS) await this.flush();
  }

  /** Mines empty blocks for every slot up to `slot` that has none yet. */
  mineEmpty(slot: number): void {
    const count = slot - this.lastSlot;
    if (count <= 0) return;
    this.call("evm_setNextBlockTimestamp", [this.timestampOf(this.lastSlot + 1)]);
    this.call("hardhat_mine", [toQuantity(count), toQuantity(this.options.slotSeconds)]);
    this.lastSlot = slot;
    this.blocksInBatch += count;
  }

  /** Sends what is queued once the batch before it has been executed. Batches go one at a time
   * (separate HTTP requests may arrive out of order), but the next one is built meanwhile. */
  async flush(): Promise<void> {
    this.throwIfFailed();
    if (this.calls.length === 0) return;
    const batch: Batch = {
      calls: this.calls,
      labels: this.labels,
      firstBlock: this.batchStart,
      lastBlock: this.blockOf(this.lastSlot),
      reserves: [...this.touched].map((pair) => [pair, ...this.options.expectedReserves(pair)]),
    };
    this.calls = [];
    this.labels = new Map();
    this.touched = new Set();
    this.blocksInBatch = 0;
    this.batchStart = batch.lastBlock + 1;
    await this.inFlight;
    this.throwIfFailed();
    this.inFlight = this.execute(batch).catch((e: Error) => {
      this.failure ??= e;
    });
  }

  /** Sends everything and waits until the node has executed it. */
  async drain(): Promise<void> {
    await this.flush();
    await this.inFlight;
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private async execute(batch: Batch): Promise<void> {
    try {
      await this.executeAndCheck(batch);
    } catch (e) {
      throw new Error(`${(e as Error).message}${await this.firstRevert(batch)}`, { cause: e });
    }
  }

  private async executeAndCheck(batch: Batch): Promise<void> {
    const checks: RpcCall[] = [
      { method: "eth_blockNumber", params: [] },
      { method: "eth_getBlockTransactionCountByNumber", params: ["pending"] },
      ...batch.reserves.map(([pair]) => ({ method: "eth_call", params: [{ to: pair, data: GET_RESERVES }, "latest"] })),
    ];
    const results = await this.rpc.batch([...batch.calls, ...checks]);
    const [blockNumber, pending, ...reserves] = results.slice(batch.calls.length) as Hex[];
    if (Number(blockNumber) !== batch.lastBlock) {
      throw new Error(`writer: chain at block ${Number(blockNumber)}, expected ${batch.lastBlock}`);
    }
    if (Number(pending) !== 0) throw new Error(`writer: ${Number(pending)} transactions left unmined`);
    for (let i = 0; i < batch.reserves.length; i++) {
      const [pair, r0, r1] = batch.reserves[i];
      const [c0, c1] = decodeAbiParameters([{ type: "uint112" }, { type: "uint112" }], reserves[i]);
      if (c0 !== r0 || c1 !== r1) {
        throw new Error(`writer: pair ${pair} diverged from the ledger by block ${batch.lastBlock} (chain ${c0}/${c1}, ledger ${r0}/${r1})`);
      }
    }
  }

  /** On failure only: the first reverted transaction mined since the batch began (it costs a
   * receipt per transaction). */
  private async firstRevert(batch: Batch): Promise<string> {
    const head = Number(await this.rpc.call<Hex>("eth_blockNumber"));
    for (let n = batch.firstBlock; n <= head; n++) {
      const block = await this.rpc.call<{ transactions: Hex[] }>("eth_getBlockByNumber", [toQuantity(n), false]);
      if (block.transactions.length === 0) continue;
      const receipts = (await this.rpc.batch(
        block.transactions.map((hash) => ({ method: "eth_getTransactionReceipt", params: [hash] })),
      )) as { status: Hex; from: Address; transactionHash: Hex }[];
      const failed = receipts.find((r) => r.status !== "0x1");
      if (!failed) continue;
      const [tx, trace] = (await this.rpc.batch([
        { method: "eth_getTransactionByHash", params: [failed.transactionHash] },
        { method: "debug_traceTransaction", params: [failed.transactionHash, { disableStack: true, disableMemory: true, disableStorage: true }] },
      ])) as [{ nonce: Hex }, { returnValue: string }];
      const label = batch.labels.get(`${failed.from}:${Number(tx.nonce)}`) ?? "an earlier batch's transaction";
      return `; first reverted transaction: ${label} (${failed.transactionHash}, block ${n}): ${revertReason(trace.returnValue)}`;
    }
    return "";
  }
}

function revertReason(returnValue: string): string {
  const data = (returnValue.startsWith("0x") ? returnValue : `0x${returnValue}`) as Hex;
  try {
    return String(decodeErrorResult({ abi: [], data }).args?.[0]);
  } catch {
    return data;
  }
}
