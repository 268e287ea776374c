/**
 * Turns the simulator's blocks into JSON-RPC batches. Every 2-second slot of the timeline is one
 * block: slots without transactions are mined in bulk (`hardhat_mine` with an interval, constant
 * time), a slot with transactions is its transactions followed by `evm_mine(timestamp)`. Several
 * blocks go in one batch, and the next batch is built while the node executes the last one.
 *
 * No receipts are awaited: after each batch the block number, the empty mempool and the reserves of
 * every pair the batch touched are compared with the ledger, so a transaction that reverted (a
 * simulator bug) stops the run at once instead of silently corrupting the ground truth.
 *
 * Outside transactions (node-protocol.ts): the writer attaches to the node, which then mines them
 * only where the writer admits them, after its own transactions in the last block of a batch. Live,
 * once caught up with the clock, every batch admits them and is awaited, and what they did is
 * adopted into the ledger before the next block is computed. Before that (backfill, catching up
 * after a restart) nothing is admitted, so the history rebuilt after a restart is the old one; the
 * outside transactions the node's journal recorded are sent again in their blocks, each such block
 * ending a batch that is awaited and adopted the same way, so the rebuilt chain equals the old one.
 */
import { type Address, decodeAbiParameters, decodeErrorResult, type Hex } from "viem";
import { toQuantity } from "../encoding";
import { type AttachResult, NODE_METHODS, type OutsideReport, SIMULATOR_HEADER } from "../node-protocol";
import { type RpcCall, RpcClient } from "../rpc";

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
  /** The mirror's price and active liquidity of a V3 pool now. */
  expectedV3(pool: Address): [bigint, bigint];
  /** Adopts into the ledger what the outside transactions mined in `block` did; returns the pairs it
   * read from the chain. */
  adoptOutside(hashes: Hex[], block: number): Promise<ReadonlySet<Address>>;
  /** Says what happened to outside transactions. */
  notice(message: string): void;
}

const GET_RESERVES = "0x0902f1ac";
const SLOT0 = "0x3850c7bd";
const LIQUIDITY = "0x1a686502";
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
  /** V3 pools: sqrtPriceX96 and active liquidity. */
  v3: [Address, bigint, bigint][];
}

export class ChainWriter {
  private readonly rpc: RpcClient;
  /** Blocks ahead with recorded outside transactions to replay, ascending. */
  private recorded: number[] = [];
  /** Transactions to open the next block with. */
  private firstInNextBlock: TxRequest[] = [];
  private calls: RpcCall[] = [];
  private labels = new Map<string, string>();
  private batchStart: number;
  private blocksInBatch = 0;
  private touched = new Set<Address>();
  private touchedV3 = new Set<Address>();
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
    this.rpc = new RpcClient(rpcUrl, { [SIMULATOR_HEADER]: "1" });
    this.batchStart = this.blockOf(0);
  }

  /** Takes the chain over from outside clients and learns which blocks to replay their
   * transactions in. */
  async attach(): Promise<void> {
    const { recordedBlocks, notices } = await this.rpc.call<AttachResult>(NODE_METHODS.attach);
    notices.forEach((n) => this.options.notice(n));
    for (const block of recordedBlocks) {
      if (block > this.options.blockBeforeStart) this.recorded.push(block);
      else
        this.options.notice(
          `outside transactions recorded in block ${block}, before the simulation, cannot be replayed`,
        );
    }
  }

  /** Hands the chain back (after drain()). */
  async release(): Promise<void> {
    await this.rpc.call(NODE_METHODS.release);
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
  async beginBlock(slot: number): Promise<void> {
    if (this.openSlot !== undefined) throw new Error("writer: a block is already open");
    if (slot <= this.lastSlot) throw new Error(`writer: slot ${slot} is not after ${this.lastSlot}`);
    await this.mineEmpty(slot - 1);
    this.open(slot);
  }

  private open(slot: number): void {
    this.openSlot = slot;
    this.blockGas = 0n;
    for (const tx of this.firstInNextBlock.splice(0)) this.send(tx);
  }

  /** Gas the open block can still take within its budget. */
  get gasLeft(): bigint {
    return BLOCK_GAS_BUDGET - this.blockGas;
  }

  /** A non-transaction call (balance set-up, impersonation) placed at this point of the block. */
  call(method: string, params: unknown[]): void {
    this.calls.push({ method, params });
  }

  send(tx: TxRequest): void {
    if (this.openSlot === undefined) throw new Error("writer: no open block");
    this.blockGas += tx.gas;
    if (this.blockGas > BLOCK_GAS_BUDGET)
      throw new Error(`writer: block of slot ${this.openSlot} is over its gas budget`);
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

  /** A transaction to open the next block with, whichever slot that is. */
  sendInNextBlock(tx: TxRequest): void {
    this.firstInNextBlock.push(tx);
  }

  /** Marks a pair whose reserves this batch changes, to be checked against the chain. */
  touch(pair: Address): void {
    this.touched.add(pair);
  }

  /** Marks a V3 pool whose price or liquidity this batch changes, to be checked against the chain. */
  touchV3(pool: Address): void {
    this.touchedV3.add(pool);
  }

  /** Mines the open block (with the outside transactions recorded in it, replayed after the
   * simulator's); sends the batch once it is big enough, or at once, awaited, after a replay. */
  async endBlock(): Promise<void> {
    if (this.openSlot === undefined) throw new Error("writer: no open block");
    const block = this.blockOf(this.openSlot);
    const replay = this.recorded[0] === block;
    if (replay) {
      this.recorded.shift();
      this.call(NODE_METHODS.replay, [block]);
    }
    this.call("evm_mine", [this.timestampOf(this.openSlot)]);
    this.lastSlot = this.openSlot;
    this.openSlot = undefined;
    this.blocksInBatch++;
    if (replay) await this.flush({ wait: true });
    else if (this.calls.length >= MAX_BATCH_CALLS || this.blocksInBatch >= MAX_BATCH_BLOCKS) await this.flush();
  }

  /** Mines empty blocks for every slot up to `slot` that has none yet: in bulk, except a block that
   * opens with transactions or has outside transactions to replay. */
  async mineEmpty(slot: number): Promise<void> {
    while (this.lastSlot < slot) {
      const next = this.lastSlot + 1;
      if (this.firstInNextBlock.length > 0 || this.recorded[0] === this.blockOf(next)) {
        this.open(next);
        await this.endBlock();
        continue;
      }
      const last = this.recorded.length > 0 ? Math.min(slot, this.slotOf(this.recorded[0]) - 1) : slot;
      this.call("evm_setNextBlockTimestamp", [this.timestampOf(next)]);
      this.call("hardhat_mine", [toQuantity(last - this.lastSlot), toQuantity(this.options.slotSeconds)]);
      this.blocksInBatch += last - this.lastSlot;
      this.lastSlot = last;
    }
  }

  private slotOf(block: number): number {
    return block - this.options.blockBeforeStart - 1;
  }

  /**
   * Sends what is queued once the batch before it has been executed. Batches go one at a time
   * (separate HTTP requests may arrive out of order), but the next one is built meanwhile, unless
   * `wait`. `admitOutside` lets the outside transactions waiting at the node into the batch's last
   * block, after the simulator's, and waits: what they did is in the ledger when this returns.
   */
  async flush({ wait = false, admitOutside = false }: { wait?: boolean; admitOutside?: boolean } = {}): Promise<void> {
    this.throwIfFailed();
    if (this.calls.length === 0) return;
    if (admitOutside && this.calls.at(-1)!.method === "evm_mine") {
      this.calls.splice(-1, 0, { method: NODE_METHODS.admit, params: [] });
      wait = true;
    }
    const batch: Batch = {
      calls: this.calls,
      labels: this.labels,
      firstBlock: this.batchStart,
      lastBlock: this.blockOf(this.lastSlot),
      reserves: [...this.touched].map((pair) => [pair, ...this.options.expectedReserves(pair)]),
      v3: [...this.touchedV3].map((pool) => [pool, ...this.options.expectedV3(pool)]),
    };
    this.calls = [];
    this.labels = new Map();
    this.touched = new Set();
    this.touchedV3 = new Set();
    this.blocksInBatch = 0;
    this.batchStart = batch.lastBlock + 1;
    await this.inFlight;
    this.throwIfFailed();
    this.inFlight = this.execute(batch).catch((e: Error) => {
      this.failure ??= e;
    });
    if (wait) await this.drain();
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
      { method: NODE_METHODS.report, params: [] },
      ...batch.reserves.map(([pair]) => ({ method: "eth_call", params: [{ to: pair, data: GET_RESERVES }, "latest"] })),
      ...batch.v3.flatMap(([pool]) =>
        [SLOT0, LIQUIDITY].map((data) => ({ method: "eth_call", params: [{ to: pool, data }, "latest"] })),
      ),
    ];
    const results = await this.rpc.batch([...batch.calls, ...checks]);
    const [blockNumber, pending, report, ...views] = results.slice(batch.calls.length) as [
      Hex,
      Hex,
      OutsideReport,
      ...Hex[],
    ];
    const reserves = views.slice(0, batch.reserves.length);
    const v3 = views.slice(batch.reserves.length);
    if (Number(blockNumber) !== batch.lastBlock) {
      throw new Error(`writer: chain at block ${Number(blockNumber)}, expected ${batch.lastBlock}`);
    }
    if (Number(pending) !== 0) throw new Error(`writer: ${Number(pending)} transactions left unmined`);
    report.notices.forEach((n) => this.options.notice(n));
    const adopted = report.mined.length > 0 ? await this.adopt(report.mined, batch.lastBlock) : new Set<Address>();
    for (let i = 0; i < batch.reserves.length; i++) {
      const [pair, r0, r1] = batch.reserves[i];
      if (adopted.has(pair)) continue;
      const [c0, c1] = decodeAbiParameters([{ type: "uint112" }, { type: "uint112" }], reserves[i]);
      if (c0 !== r0 || c1 !== r1) {
        throw new Error(
          `writer: pair ${pair} diverged from the ledger by block ${batch.lastBlock} ` +
            `(chain ${c0}/${c1}, ledger ${r0}/${r1})`,
        );
      }
    }
    for (let i = 0; i < batch.v3.length; i++) {
      const [pool, price, liquidity] = batch.v3[i];
      if (adopted.has(pool)) continue;
      const chainPrice = BigInt(v3[2 * i].slice(0, 66));
      const chainLiquidity = BigInt(v3[2 * i + 1]);
      if (chainPrice !== price || chainLiquidity !== liquidity) {
        throw new Error(
          `writer: V3 pool ${pool} diverged from its mirror by block ${batch.lastBlock} ` +
            `(chain ${chainPrice}/${chainLiquidity}, mirror ${price}/${liquidity})`,
        );
      }
    }
  }

  /** Outside transactions are mined only in the last block of a batch that the writer awaits. */
  private async adopt(mined: OutsideReport["mined"], block: number): Promise<ReadonlySet<Address>> {
    const stray = mined.find((m) => m.block !== block);
    if (stray)
      throw new Error(
        `writer: outside transaction ${stray.hash} mined in block ${stray.block}, ` +
          `not at the end of the batch (${block})`,
      );
    this.options.notice(
      `${mined.length} outside transaction(s) mined in block ${block}: ${mined.map((m) => m.hash).join(", ")}`,
    );
    const adopted = await this.options.adoptOutside(
      mined.map((m) => m.hash),
      block,
    );
    // Outside transactions may have used more than half a block's gas, which would raise the base
    // fee above the zero the simulator's free transactions need.
    this.call("hardhat_setNextBlockBaseFeePerGas", ["0x0"]);
    return adopted;
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
      )) as {
        status: Hex;
        from: Address;
        transactionHash: Hex;
      }[];
      const failed = receipts.find((r) => r.status !== "0x1");
      if (!failed) continue;
      const [tx, trace] = (await this.rpc.batch([
        { method: "eth_getTransactionByHash", params: [failed.transactionHash] },
        {
          method: "debug_traceTransaction",
          params: [failed.transactionHash, { disableStack: true, disableMemory: true, disableStorage: true }],
        },
      ])) as [{ nonce: Hex }, { returnValue: string }];
      const label = batch.labels.get(`${failed.from}:${Number(tx.nonce)}`) ?? "an earlier batch's transaction";
      return (
        `; first reverted transaction: ${label} (${failed.transactionHash}, block ${n}): ` +
        revertReason(trace.returnValue)
      );
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
