import { connect, createDb, type Db, type Sql } from "@/db/client";
import { log } from "@/lib/log";
import { recordCycle } from "./indexer/checkpoint";
import { runHeadProbe } from "./indexer/head";
import { Indexer, type Progress } from "./indexer/indexer";
import { NewHeads } from "./indexer/new-heads";
import { Rpc } from "./indexer/rpc";
import type { LiveStep } from "./indexer/sync/realtime";
import { acquireLeadership } from "./lock";
import { type ChainProfile, loadProfile } from "./profiles";
import { ChainIdMismatchError, checkChainId } from "./profiles/chain-id";
import { sleep } from "./sleep";

/** What the hook after each indexing cycle receives (alert evaluation runs there). */
export type CycleContext = {
  sql: Sql;
  db: Db;
  profile: ChainProfile;
  head: number;
  indexedBlock: number;
  indexedTime: number;
  step: LiveStep;
};

export type WorkerOptions = {
  databaseUrl: string;
  rpcUrl: string;
  /** The node's WebSocket (RPC_WS_URL): new blocks are read when it announces them, not only at the next poll. */
  wsUrl?: string;
  /** A profile, or its name (CHAIN_PROFILE); `devchain` reads deployment.json under dataDir. */
  profile: ChainProfile | string;
  dataDir?: string;
  /** Pause between polls of the head once caught up (POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  onProgress?: (p: Progress) => void;
  /** Called with "standby" while another worker holds the lock, "active" once this one does. */
  onRole?: (role: "standby" | "active") => void;
  /** Runs after every cycle, outside the indexing transactions; its errors are logged, not fatal. */
  afterCycle?: (ctx: CycleContext) => Promise<void>;
  signal?: AbortSignal;
  /** See IndexerOptions.fullRefreshIntervalMs. */
  fullRefreshIntervalMs?: number;
  rpcTimeoutMs?: number;
  /** How often the head probe reads the chain's head and writes the heartbeat (default 2 s). */
  headProbeIntervalMs?: number;
};

/** The application_name of the active worker's sessions (a benchmark or test finds them by it). */
export const WORKER_APPLICATION = "onchain-intel-worker";
const LEADERSHIP_CHECK_MS = 2_000;
const MAX_ERROR_BACKOFF_MS = 30_000;
const HEAD_PROBE_INTERVAL_MS = 2_000;
/** The head probe's own deadline per request: a slow node must not make the head look older. */
const HEAD_PROBE_TIMEOUT_MS = 5_000;

/**
 * The worker: waits for the advisory lock (standby), then indexes until `signal` aborts or the
 * lock is lost, then waits again. Resolves when `signal` aborts.
 */
export async function startWorker(opts: WorkerOptions): Promise<void> {
  const profile = typeof opts.profile === "string" ? loadProfile(opts.profile, opts.dataDir) : opts.profile;
  while (!opts.signal?.aborted) {
    const lead = await acquireLeadership(opts.databaseUrl, profile.chainId, {
      signal: opts.signal,
      onStandby: () => (log.info("worker standby: another worker holds the lock"), opts.onRole?.("standby")),
    });
    if (!lead) return;
    log.info("worker active", { profile: profile.name, chainId: profile.chainId });
    opts.onRole?.("active");
    const active = new AbortController();
    const stop = () => active.abort();
    opts.signal?.addEventListener("abort", stop, { once: true });
    const watch = setInterval(() => {
      void lead.check().then((held) => {
        if (!held && !active.signal.aborted) log.error("worker lost the advisory lock; standing by"), active.abort();
      });
    }, LEADERSHIP_CHECK_MS);
    try {
      await runActive(opts, profile, active.signal);
    } finally {
      clearInterval(watch);
      opts.signal?.removeEventListener("abort", stop);
      await lead.release();
    }
  }
}

async function runActive(opts: WorkerOptions, profile: ChainProfile, signal: AbortSignal) {
  // Statements of a backfill range or a reorg may run longer than an API request's deadline.
  const sql = connect(opts.databaseUrl, {
    max: 4,
    connection: { application_name: WORKER_APPLICATION, statement_timeout: 300_000 },
  });
  const db = createDb(sql);
  const newHeads = new NewHeads(opts.wsUrl);
  const rpc = new Rpc({
    url: opts.rpcUrl,
    signal,
    timeoutMs: opts.rpcTimeoutMs,
    addressChunkSize: profile.addressChunkSize,
  });
  // The probe stops with the active role, however the loop below ends.
  const probeRun = new AbortController();
  const stopProbe = () => probeRun.abort();
  signal.addEventListener("abort", stopProbe, { once: true });
  const probe = runHeadProbe({
    sql,
    rpc: new Rpc({
      url: opts.rpcUrl,
      signal: probeRun.signal,
      timeoutMs: Math.min(opts.rpcTimeoutMs ?? HEAD_PROBE_TIMEOUT_MS, HEAD_PROBE_TIMEOUT_MS),
      maxAttempts: 2,
    }),
    chainId: profile.chainId,
    intervalMs: opts.headProbeIntervalMs ?? HEAD_PROBE_INTERVAL_MS,
    signal: probeRun.signal,
  });
  let failures = 0;
  // A previous worker may have left a count of failures: the first success clears it.
  let failuresStored = true;
  let indexer: Indexer | null = null;
  let chainChecked = false;
  try {
    while (!signal.aborted) {
      try {
        if (!chainChecked) await checkChainId(rpc, profile);
        chainChecked = true;
        indexer ??= await Indexer.create({
          sql,
          rpc,
          profile,
          signal,
          onProgress: opts.onProgress,
          fullRefreshIntervalMs: opts.fullRefreshIntervalMs,
          pollIntervalMs: opts.pollIntervalMs,
          newHeads,
        });
        // A block announced while the cycle runs is read right after it.
        const announced = newHeads.announced;
        const result = await indexer.cycle();
        if (failuresStored) await recordCycle(sql, profile.chainId, true);
        failures = 0;
        failuresStored = false;
        if (opts.afterCycle) {
          await opts
            .afterCycle({ sql, db, profile, ...result })
            .catch((err) => log.error("afterCycle failed", { error: String(err) }));
        }
        // The next poll is due a poll interval after the last head read, however long the cycle
        // took, or when the node announces a block; behind the head (a refresh gave way to a new
        // block), the next cycle starts at once.
        if (result.indexedBlock >= result.head) await newHeads.wait(indexer.untilNextPoll(), signal, announced);
      } catch (err) {
        if (signal.aborted) break;
        // The wrong chain is no failure to retry: the worker refuses to run.
        if (err instanceof ChainIdMismatchError) throw err;
        failures++;
        // Start over from the committed checkpoint and state.
        indexer = null;
        const backoff = Math.min(MAX_ERROR_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 6));
        log.error("indexing cycle failed", {
          error: err instanceof Error ? err.message : String(err),
          failures,
          retryInMs: backoff,
        });
        // For GET /v1/status; with the database down this fails too, and the loop retries anyway.
        failuresStored = true;
        await recordCycle(sql, profile.chainId, false).catch(() => {});
        await sleep(backoff, signal);
      }
    }
  } finally {
    newHeads.close();
    probeRun.abort();
    signal.removeEventListener("abort", stopProbe);
    await probe;
    await sql.end({ timeout: 5 });
  }
}
