import type { Sql } from "@/db/client";
import { deriveRange, refreshDerived, type Touched } from "../derive";
import { fillMissingCandles } from "../derive/candles";
import { quoteTokenFundings } from "../derive/funding";
import { markTokens, reconcileRange } from "../derive/reconcile";
import type { ChainProfile } from "../profiles";
import { writeKnownContracts } from "../profiles/contracts";
import { type BlockRef, bumpDataVersion, readCheckpoint, writeCheckpoint, writeHeartbeat } from "./checkpoint";
import type { RangeData } from "./fetch";
import { logQuarantined, type Quarantine, recordQuarantines, writeIsolating } from "./quarantine";
import { rollbackTo } from "./reorg";
import type { Rpc } from "./rpc";
import { ChainState } from "./state";
import { syncHistorical } from "./sync/historical";
import { type LiveStep, rollBackIfOrphaned, syncLive } from "./sync/realtime";
import { type RangeRows, transformRange } from "./transform";
import { insertRangeFacts } from "./write";

export type Progress = {
  phase: "backfill" | "live";
  /** First block this process indexed (its progress bar starts there). */
  startBlock: number;
  indexedBlock: number;
  headBlock: number;
  blocksDone: number;
  blocksTotal: number;
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** Seconds until the backfill reaches the head at the current rate; null when unknown. */
  etaSeconds: number | null;
};

export type IndexerOptions = {
  sql: Sql;
  rpc: Rpc;
  profile: ChainProfile;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Price- and time-dependent figures of every token and wallet are refreshed at most this often. */
  fullRefreshIntervalMs?: number;
};

/** `indexedTime`: Unix seconds of the indexed block, the "now" of everything derived from it. */
export type CycleResult = { head: number; indexedBlock: number; indexedTime: number; step: LiveStep };

const HEARTBEAT_EVERY_MS = 1_000;
/** Thrown to roll back a trial write of a range (quarantine.ts traces a failure to one token with them). */
const DRY_RUN = Symbol("dry run");

/**
 * The sync engine: historical backfill of final blocks, then live steps near the head with reorg
 * handling. Every range commits its facts, the state derived from them and the checkpoint in one
 * transaction, so a crash at any moment resumes from the checkpoint with nothing lost or doubled.
 * The price- and time-dependent figures a live range touches follow in a transaction of their
 * own, so its events are served without waiting for them; the full refresh recomputes them all.
 */
export class Indexer {
  readonly sql: Sql;
  readonly rpc: Rpc;
  readonly profile: ChainProfile;
  readonly signal?: AbortSignal;
  state: ChainState;
  /** The last committed block, or the block before the start block while nothing is committed. */
  checkpoint!: BlockRef;
  private readonly onProgress?: (p: Progress) => void;
  private readonly fullRefreshIntervalMs: number;
  private refreshPending = true;
  private lastRefreshAt = 0;
  private lastHeartbeatAt = 0;
  private lastHeadReported = -1;
  private head = 0;
  /** When `head` was read (Unix ms): a head report carries it, so an older read never wins. */
  private headReadAt = 0;
  private readonly run = { startBlock: 0, startedAt: Date.now(), events: 0 };

  private constructor(opts: IndexerOptions, state: ChainState) {
    this.sql = opts.sql;
    this.rpc = opts.rpc;
    this.profile = opts.profile;
    this.signal = opts.signal;
    this.onProgress = opts.onProgress;
    this.fullRefreshIntervalMs = opts.fullRefreshIntervalMs ?? 30_000;
    this.state = state;
  }

  static async create(opts: IndexerOptions): Promise<Indexer> {
    await opts.sql.begin(async (tx) => {
      await writeKnownContracts(tx, opts.profile);
      await fillMissingCandles(tx);
    });
    const ix = new Indexer(opts, await ChainState.load(opts.sql, opts.profile));
    ix.checkpoint = (await readCheckpoint(opts.sql, opts.profile.chainId)) ?? (await ix.beforeStart());
    ix.run.startBlock = ix.checkpoint.number + 1;
    return ix;
  }

  /** The parent of the start block, as the node has it: what the first range must extend. */
  private async beforeStart(): Promise<BlockRef> {
    const n = Math.max(this.profile.startBlock - 1, 0);
    const [b] = await this.rpc.getBlocks([n], false);
    if (!b) throw new Error(`the node has no block ${n}`);
    return { number: n, hash: b.hash, timestamp: Number(b.timestamp) };
  }

  /** One poll: backfill what is final, then one live step, then the idle refresh if due. */
  async cycle(): Promise<CycleResult> {
    this.headReadAt = Date.now();
    this.head = await this.rpc.blockNumber();
    const finalHead = this.head - this.profile.finalityDepth;
    // A backfill trusts its blocks to be final, so it must start from a block the node still has.
    if (this.checkpoint.number < finalHead && !(await rollBackIfOrphaned(this))) {
      await syncHistorical(this, this.checkpoint.number + 1, finalHead);
      if (!this.signal?.aborted) await this.refreshAll();
    }
    const step = this.signal?.aborted ? "idle" : await syncLive(this, this.head);
    if (step === "idle" && this.refreshPending && Date.now() - this.lastRefreshAt >= this.fullRefreshIntervalMs) {
      await this.refreshAll();
    }
    await this.heartbeat();
    return { head: this.head, indexedBlock: this.checkpoint.number, indexedTime: this.checkpoint.timestamp, step };
  }

  /**
   * Writes a fetched range: facts, derived state and checkpoint in one transaction. A failure that
   * belongs to one entity quarantines it and the range is written without it (quarantine.ts).
   */
  async commit(data: RangeData, live: boolean) {
    const last = data.blocks.get(data.to)!;
    const ref: BlockRef = { number: last.number, hash: last.hash, timestamp: last.timestamp };
    const restoreReserves = this.state.saveReserves();
    let rows: RangeRows;
    let quarantined: Quarantine[];
    let touched: Touched = { tokens: [], wallets: [] };
    try {
      [rows, quarantined] = await writeIsolating(data, this.state, async (range, dryRun) => {
        restoreReserves();
        const rows = transformRange(range, this.state);
        let recorded: Quarantine[] = [];
        await this.sql
          .begin(async (tx) => {
            recorded = await recordQuarantines(tx, range);
            const mismatched = await reconcileRange(tx, this.rpc, this.state, range, rows);
            const facts = { ...range, fundings: [...range.fundings, ...(await quoteTokenFundings(tx, this.rpc, this.state, range, rows))] };
            await insertRangeFacts(tx, this.state, facts, rows);
            await markTokens(tx, range, mismatched);
            touched = await deriveRange(tx, this.state, this.profile, range.from, rows, facts.fundings);
            await writeCheckpoint(tx, this.profile.chainId, ref, this.profile.finalityDepth);
            if (dryRun) throw DRY_RUN;
          })
          .catch((err) => {
            if (err !== DRY_RUN) throw err;
          });
        return [rows, recorded] as const;
      });
    } catch (err) {
      await this.reloadState();
      throw err;
    }
    // Stop watching what was quarantined; the log line is written once, when the row is.
    if (data.quarantined.length > 0) await this.reloadState();
    logQuarantined(quarantined);
    this.checkpoint = ref;
    this.refreshPending = true;
    // A crash before this commits leaves these figures to the full refresh a new run starts with.
    if (live) {
      await this.sql.begin(async (tx) => {
        await refreshDerived(tx, this.state, touched, ref);
        await bumpDataVersion(tx, this.profile.chainId);
      });
    }
    this.run.events += rows.events.length;
    this.reportProgress(live);
    // A backfill is one long cycle: stay visibly alive through it.
    await this.heartbeat();
  }

  async rollback(ancestor: BlockRef | null) {
    try {
      this.state = await this.sql.begin((tx) => rollbackTo(tx, this.profile, ancestor));
    } catch (err) {
      await this.reloadState();
      throw err;
    }
    this.checkpoint = ancestor ?? (await this.beforeStart());
    this.refreshPending = true;
    await this.refreshAll();
  }

  /** Drops in-memory changes of a range that did not commit (reserves, discoveries). */
  async reloadState() {
    this.state = await ChainState.load(this.sql, this.profile);
  }

  /** Every token's and wallet's price- and time-dependent figures, as of the checkpoint. */
  async refreshAll() {
    if (this.checkpoint.number < this.profile.startBlock) return;
    await this.sql.begin(async (tx) => {
      await refreshDerived(tx, this.state, "all", this.checkpoint);
      await bumpDataVersion(tx, this.profile.chainId);
    });
    this.refreshPending = false;
    this.lastRefreshAt = Date.now();
  }

  /**
   * Liveness, and the head with its time when the checkpoint is at it (the worker's head probe
   * reports the head at every other moment, independently of this loop).
   */
  private async heartbeat() {
    const atHead = this.checkpoint.number === this.head;
    // Reaching a new head is always reported: the rate limit is for liveness only, so status
    // never depends on how quickly the last range happened to follow the previous heartbeat.
    const newHead = atHead && this.head !== this.lastHeadReported;
    if (!newHead && Date.now() - this.lastHeartbeatAt < HEARTBEAT_EVERY_MS) return;
    await writeHeartbeat(
      this.sql,
      this.profile.chainId,
      atHead ? { number: this.head, timestamp: this.checkpoint.timestamp, checkedAt: this.headReadAt } : null,
    );
    this.lastHeartbeatAt = Date.now();
    if (atHead) this.lastHeadReported = this.head;
  }

  private reportProgress(live: boolean) {
    if (!this.onProgress) return;
    const seconds = Math.max((Date.now() - this.run.startedAt) / 1000, 0.001);
    const done = this.checkpoint.number - this.run.startBlock + 1;
    const total = Math.max(this.head - this.run.startBlock + 1, done);
    const blocksPerSecond = done / seconds;
    this.onProgress({
      phase: live ? "live" : "backfill",
      startBlock: this.run.startBlock,
      indexedBlock: this.checkpoint.number,
      headBlock: this.head,
      blocksDone: done,
      blocksTotal: total,
      blocksPerSecond,
      eventsPerSecond: this.run.events / seconds,
      etaSeconds: blocksPerSecond > 0 ? (total - done) / blocksPerSecond : null,
    });
  }
}
