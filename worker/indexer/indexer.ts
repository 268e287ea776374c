import type { Sql } from "@/db/client";
import { log } from "@/lib/log";
import { type Refreshed, type RefreshScope, refreshDerived, type Touched, touchedBy, touchedScope } from "../derive";
import { fillMissingCandles } from "../derive/candles";
import { Held } from "../derive/held";
import { applyUpgradedSummaries } from "../derive/scores";
import { SlicedRefresh } from "../derive/sliced-refresh";
import type { ChainProfile } from "../profiles";
import { writeKnownContracts } from "../profiles/contracts";
import { type BlockRef, bumpDataVersion, readCheckpoint, writeHeartbeat } from "./checkpoint";
import { GiveWay, transactionGivingWay } from "./give-way";
import type { NewHeads } from "./new-heads";
import { logQuarantined } from "./quarantine";
import type { RangeData } from "./range";
import { rollbackTo } from "./reorg";
import type { Rpc } from "./rpc";
import { ScoreCadence } from "./score-cadence";
import { ChainState } from "./state";
import { ChainStatistics } from "./statistics";
import { historicalRanges } from "./sync/historical";
import { findLive, type LiveSource, type LiveStep, orphanedCheckpoint } from "./sync/realtime";
import { type WrittenRange, writeRange } from "./write-range";

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
  /**
   * Price- and time-dependent figures of every token and wallet are refreshed at most this often;
   * a refresh may give way to new blocks for no longer than this either.
   */
  fullRefreshIntervalMs?: number;
  /** How often the head is read while the worker waits or refreshes (POLL_INTERVAL_MS). */
  pollIntervalMs?: number;
  /** The node's new-block announcements: a refresh gives way on one without waiting for its poll. */
  newHeads?: NewHeads;
  /** Rows of scoring input that make a token busy (score-cadence.ts, BUSY_SCORING_ROWS). */
  busyScoringRows?: number;
};

/** `indexedTime`: Unix seconds of the indexed block, the "now" of everything derived from it. */
export type CycleResult = { head: number; indexedBlock: number; indexedTime: number; step: LiveStep };

const HEARTBEAT_EVERY_MS = 1_000;

/**
 * The sync engine: historical backfill of final blocks, then live steps near the head with reorg
 * handling. The sync modules find the ranges (sync/historical.ts, sync/realtime.ts: fetched and
 * checked) and return them; this writes each (write-range.ts): its facts, the state derived from
 * them and the checkpoint in one transaction, so a crash at any moment resumes from the checkpoint
 * with nothing lost or doubled.
 * The price- and time-dependent figures a live range touches follow in a transaction of their
 * own, so its events are served without waiting for them; the full refresh recomputes them all.
 * After a backfill that refresh follows the first live step and covers its blocks too.
 * Scores are taken again less often than figures (score-cadence.ts): a busy token's at most every
 * 10 s, and those no block moved once they are 5 minutes old.
 * The head is read every poll interval, also while a refresh runs: a refresh that meets a new
 * block rolls back at once and gives way to it (its figures are refreshed after that block, with
 * what it touched), unless those figures have waited for the full refresh interval already. The
 * full refresh runs in slices (derive/index.ts), so giving way costs it one slice, not all of it.
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
  private readonly pollIntervalMs: number;
  private readonly newHeads?: NewHeads;
  private refreshPending = true;
  /**
   * A backfill wrote ranges that no refresh has covered: the refresh of everything that follows it
   * covers the live blocks written before it too, so they get no refresh of their own.
   */
  private backfillUnrefreshed = false;
  /** What committed live ranges touched and no refresh has covered yet, and since when. */
  private touched: Touched | null = null;
  private touchedSince = 0;
  private readonly scoreCadence: ScoreCadence;
  /** A full refresh still to complete, once one has given way to a new block. */
  private fullRefresh: SlicedRefresh | null = null;
  private lastRefreshAt = 0;
  private lastHeartbeatAt = 0;
  private lastHeadReported = -1;
  private head = 0;
  /** When `head` was read (Unix ms): a head report carries it, so an older read never wins. */
  private headReadAt = 0;
  /** Announcements of new heads (newHeads) before the last head read. */
  private announcedAtRead = 0;
  /** `head` is an announced one, not yet found on the node. */
  private headAnnounced = false;
  /** Announced heads are taken as the head until one is not on the node yet (readHead). */
  private announcedHeadsServed = true;
  private readonly run = { startBlock: 0, startedAt: Date.now(), events: 0 };
  private readonly statistics = new ChainStatistics();

  private constructor(opts: IndexerOptions, state: ChainState) {
    this.sql = opts.sql;
    this.rpc = opts.rpc;
    this.profile = opts.profile;
    this.signal = opts.signal;
    this.onProgress = opts.onProgress;
    this.fullRefreshIntervalMs = opts.fullRefreshIntervalMs ?? 30_000;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1_000;
    this.newHeads = opts.newHeads;
    this.scoreCadence = new ScoreCadence(this.fullRefreshIntervalMs, opts.busyScoringRows);
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
    // A head read beyond the checkpoint (a refresh gave way to it) is fetched at once; else the head is read now.
    if (this.head <= this.checkpoint.number) await this.readHead();
    const finalHead = this.head - this.profile.finalityDepth;
    // A backfill trusts its blocks to be final, so it must start from a block the node still has.
    if (this.checkpoint.number < finalHead) {
      const orphaned = await orphanedCheckpoint(this.liveSource());
      if (orphaned) await this.rollback(orphaned.ancestor);
      else await this.backfill(finalHead);
    }
    const step = this.signal?.aborted ? "idle" : await this.liveStep();
    // After the live blocks: the last ones are served without waiting for the refresh of everything.
    if (this.backfillUnrefreshed && !this.signal?.aborted) await this.refreshAll();
    if (step === "idle") {
      await this.refreshTouched();
      const fullDue = this.lastRefreshAt + this.fullRefreshIntervalMs;
      if (!this.touched && this.refreshPending && Date.now() >= fullDue) await this.refreshAll(fullDue);
    }
    await this.heartbeat();
    return { head: this.head, indexedBlock: this.checkpoint.number, indexedTime: this.checkpoint.timestamp, step };
  }

  /**
   * Backfills the final blocks up to `to`, range by range. `bulk` (scripts/fixtures/bulk.ts, on a
   * database that holds no balances, positions or wallets yet) holds what the ranges derive of those
   * in the process and writes it once at the end (derive/held.ts), and leaves the ranges' candles to
   * the caller, to merge at once. A bulk backfill that fails leaves them unwritten: the load is all
   * or nothing.
   */
  async backfill(to: number, { bulk = false } = {}) {
    const source = { rpc: this.rpc, profile: this.profile, state: () => this.state, signal: this.signal };
    const held = bulk ? await Held.onEmpty(this.sql) : null;
    for await (const data of historicalRanges(source, this.checkpoint.number + 1, to)) {
      await this.commit(data, false, held);
      this.backfillUnrefreshed = true;
    }
    if (held) await this.sql.begin((tx) => held.write(tx, this.profile));
  }

  /** One live step: writes what extends the checkpoint, or rolls back a reorg. */
  private async liveStep(): Promise<LiveStep> {
    const found = await findLive(this.liveSource(), this.head);
    if (found.step === "retry") await this.retryLive();
    else if (found.step === "reorg") await this.rollback(found.ancestor);
    else if (found.step === "indexed") await this.commit(found.data, true);
    return found.step;
  }

  /**
   * After a live fetch that met a chain moving under it: the state is reloaded (discovery may have
   * learnt tokens of a branch now gone) and the head read again. If it was an announced head and
   * the node's head is still below it, the node announces blocks before it serves them (a WebSocket
   * ahead of its HTTP endpoint): its announcements then only wake the worker, as its polls do.
   */
  private async retryLive() {
    if (this.headAnnounced && (await this.rpc.blockNumber()) < this.head) {
      this.announcedHeadsServed = false;
      log.warn("the node announces blocks before it serves them; reading its head over RPC from now on", {
        announced: this.head,
      });
    }
    this.head = this.checkpoint.number;
    await this.reloadState();
  }

  private liveSource(): LiveSource {
    return { sql: this.sql, rpc: this.rpc, profile: this.profile, state: this.state, checkpoint: this.checkpoint };
  }

  /**
   * Writes a fetched range (write-range.ts), then keeps what this process tracks: the checkpoint,
   * what live ranges touched for their refresh, progress and liveness.
   */
  async commit(data: RangeData, live: boolean, held: Held | null = null) {
    const last = data.blocks.get(data.to)!;
    const ref: BlockRef = { number: last.number, hash: last.hash, timestamp: last.timestamp };
    let written: WrittenRange;
    try {
      written = await writeRange(this.sql, this.rpc, this.state, this.profile, data, ref, held);
    } catch (err) {
      await this.reloadState();
      throw err;
    }
    const { rows, quarantined } = written;
    // Stop watching what was quarantined; the log line is written once, when the row is.
    if (data.quarantined.length > 0) {
      await this.reloadState();
      held?.reserves.restore(this.state);
    }
    logQuarantined(quarantined);
    this.checkpoint = ref;
    this.refreshPending = true;
    // A crash before this commits leaves these figures to the full refresh a new run starts with.
    if (live && !this.backfillUnrefreshed) {
      const touched = touchedBy(this.state, rows);
      if (!this.touched) this.touchedSince = Date.now();
      this.touched = {
        tokens: [...new Set([...(this.touched?.tokens ?? []), ...touched.tokens])],
        wallets: [...new Set([...(this.touched?.wallets ?? []), ...touched.wallets])],
      };
      await this.refreshTouched();
    }
    this.run.events += rows.events.length;
    if (!live) await this.statistics.afterWrite(this.sql, this.run.events);
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

  /**
   * Every token's and wallet's price- and time-dependent figures, as of the checkpoint. `dueSince`:
   * since when the figures wait for it (null: they may not wait, as after a reorg).
   */
  async refreshAll(dueSince: number | null = null) {
    if (this.checkpoint.number < this.profile.startBlock) return;
    const givesWay = this.cutToGiveWay(dueSince);
    // One that may not wait covers everything afresh (after a backfill or a reorg); one that may
    // goes on with the slices of one that gave way if they were cut as it would cut them.
    if (dueSince === null || this.fullRefresh?.givesWay !== givesWay) this.fullRefresh = null;
    if (!this.fullRefresh) {
      const periodic = dueSince !== null;
      const now = Date.now();
      // A periodic one leaves the scores no block moved as they are while they are recent (ScoreCadence).
      const unscored = {
        tokens: new Set(periodic ? this.scoreCadence.periodicUnscored([...this.state.tokens.keys()], now) : []),
        wallets: periodic && this.scoreCadence.periodicWalletsUnscored(now),
      };
      this.fullRefresh = await SlicedRefresh.full(this.sql, this.state, this.checkpoint, givesWay, unscored);
    }
    const full = this.fullRefresh;
    if (!(await this.refreshSlices(full, dueSince, false))) return;
    if (!full.walletsUnscored) this.scoreCadence.walletsScored(full.plannedAt);
    // One that may not wait never gave way: it covered everything committed before it.
    if (dueSince === null) {
      this.backfillUnrefreshed = false;
      this.touched = null;
    }
    this.fullRefresh = null;
    this.refreshPending = false;
    this.lastRefreshAt = Date.now();
  }

  /**
   * The figures live ranges touched since their last refresh, and the owed scores that are due
   * (ScoreCadence: a busy token is not scored on every block), in slices when they are many. What a
   * block came before is left touched, to be refreshed after it with what it touched.
   */
  private async refreshTouched() {
    const now = Date.now();
    const due = this.scoreCadence.due(now, (t) => this.state.tokens.has(t));
    if (!this.touched && due.tokens.length === 0) return;
    const touched = this.touched ?? { tokens: [], wallets: [] };
    const tokens = [...new Set([...touched.tokens, ...due.tokens])];
    const scope = touchedScope(this.state, { tokens, wallets: touched.wallets });
    const unscored = this.scoreCadence.liveUnscored(scope.tokens, now);
    const since = Math.min(this.touched ? this.touchedSince : now, due.since);
    const plan = await SlicedRefresh.of(this.sql, this.checkpoint, this.cutToGiveWay(since), scope, unscored);
    const complete = await this.refreshSlices(plan, since, true);
    this.touched = complete ? null : plan.remaining();
    this.touchedSince = since;
  }

  /**
   * Refreshes `plan`'s slices until it is complete (true) or a block comes: inside a slice while the
   * figures may wait (refresh), and between two slices in any case (SlicedRefresh.run). `owe`: the
   * tokens a slice leaves unscored are owed their scores (live ones, which blocks moved).
   */
  private async refreshSlices(plan: SlicedRefresh, dueSince: number | null, owe: boolean): Promise<boolean> {
    return plan.run(
      async (scope) => {
        const now = Date.now();
        const refreshed = await this.refresh(scope, dueSince);
        if (refreshed) this.scoreCadence.committed(now, refreshed.scoringRows, owe ? scope.unscored : []);
        return refreshed;
      },
      // One that has waited long enough no longer gives way inside a slice, but still lets a new block in between two.
      async () => dueSince !== null && (await this.readHead(), this.head > this.checkpoint.number),
    );
  }

  /** Whether a refresh of figures waiting since `dueSince` gives way to a new block now (null: never). */
  private mayGiveWay(dueSince: number | null): boolean {
    return dueSince !== null && Date.now() - dueSince < this.fullRefreshIntervalMs;
  }

  /** Whether a refresh of figures waiting since `dueSince` is cut in the small slices of one that gives way (at first). */
  private cutToGiveWay(dueSince: number | null): boolean {
    return dueSince !== null && this.fullRefreshIntervalMs > 0;
  }

  /**
   * refreshDerived as of the checkpoint in a transaction of its own; returns what it refreshed
   * (Refreshed). If the figures have waited less than the full refresh interval since
   * `dueSince`, it gives way (GiveWay: the head is read on the poll interval meanwhile) to any block
   * beyond the checkpoint, and returns null at once, its transaction rolling back behind that block.
   */
  private async refresh(scope: RefreshScope, dueSince: number | null): Promise<Refreshed | null> {
    const mayWait = this.mayGiveWay(dueSince);
    if (mayWait && this.head > this.checkpoint.number) return null;
    const newBlock = async () => (await this.readHead(), this.head > this.checkpoint.number);
    const watch = mayWait ? new GiveWay(newBlock, this.untilNextPoll(), this.pollIntervalMs, this.newHeads) : null;
    // As of now: one that gave way may still be running when the next block has moved them.
    const { state, checkpoint } = this;
    return transactionGivingWay(
      this.sql,
      watch,
      (tx) => refreshDerived(tx, state, scope, checkpoint),
      async (tx) => {
        await applyUpgradedSummaries(tx);
        await bumpDataVersion(tx, this.profile.chainId);
      },
    );
  }

  /**
   * The head: the one announced since the last read (new-heads.ts), if it is beyond the checkpoint by
   * no more than the finality depth (at the head, where a round trip to the node delays every block);
   * else the node's, over RPC (a backfill's head, or an announcement that cannot be this chain's next).
   */
  private async readHead() {
    this.headReadAt = Date.now();
    const heard = this.newHeads?.announced ?? 0;
    const announced = heard > this.announcedAtRead && this.announcedHeadsServed ? this.newHeads!.head : null;
    this.announcedAtRead = heard;
    const ahead = announced === null ? 0 : announced - this.checkpoint.number;
    this.headAnnounced = ahead > 0 && ahead <= this.profile.finalityDepth;
    this.head = this.headAnnounced ? announced! : await this.rpc.blockNumber();
  }

  /**
   * Milliseconds until the head is to be read again: the poll interval runs from the last read, and
   * ends at once if a new head was announced since (a refresh that starts after it must still give way).
   */
  untilNextPoll(): number {
    if ((this.newHeads?.announced ?? 0) > this.announcedAtRead) return 0;
    return Math.max(0, this.headReadAt + this.pollIntervalMs - Date.now());
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
