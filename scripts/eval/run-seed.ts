import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, createDb, type Sql } from "@/db/client";
import { deploy } from "@/devchain/deploy";
import { historyAt } from "@/devchain/history-clock";
import { startDevChain } from "@/devchain/node";
import type { GroundTruth } from "@/devchain/simulator/ground-truth";
import { runSimulation } from "@/devchain/simulator/runner";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { getTokenProfile } from "@/lib/queries/tokens";
import type { FlagEvidence } from "@/lib/scoring";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc } from "@/worker/indexer/rpc";
import { devchainProfile } from "@/worker/profiles/devchain";
import { createTestDatabase } from "@/worker/test/db";

/** The simulation's size, and the share of its launches on Uniswap V3 (default the simulator's). */
export type SimSize = { days: number; tokens: number; wallets: number; v3Share?: number };

/** What the engine concluded, as the API serves it, at the end of the history. */
export type Scored = {
  tokens: {
    address: string;
    riskScore: number;
    riskLevel: string;
    flags: string[];
    evidence: FlagEvidence[];
    /** The windowed figures of the list read model (24 h volume, 1 h holder growth). */
    metrics: { holderCount: number; holderGrowth1hPct: number; volume24hUsd: number };
  }[];
  /** Each scored wallet's class. */
  wallets: Map<string, string>;
  reputations: Map<string, number>;
  /** Every launched token's risk level as the engine had it at each snapshot. */
  levelsOverTime: { address: string; riskLevel: string }[][];
  /** Every token's and wallet's score object and every token profile as the API publishes them, at the end. */
  published: { tokens: TokenScore[]; wallets: WalletScore[]; profiles: TokenProfile[] };
};

export type TokenScore = NonNullable<Awaited<ReturnType<typeof getTokenScore>>>;
export type WalletScore = NonNullable<Awaited<ReturnType<typeof getWalletScore>>>;
export type TokenProfile = NonNullable<Awaited<ReturnType<typeof getTokenProfile>>>;

const MAX_CYCLES = 10_000;
/**
 * Where in the history the risk levels are read for the rug calibration: through it, not just at
 * the end, where a rugged token is critical by its flag and the table would only restate recall.
 * Earlier reads show whether the levels rank tokens that go on to be rugged above the others.
 */
export const SNAPSHOTS = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1] as const;

/**
 * One seed end to end: a fresh dev chain and database, the simulation (ground truth written to
 * a temporary file), the indexer to each snapshot and the head, then the scores as stored.
 * The history starts at `start` (default: the pinned instant), so a seed gives one result.
 * Everything it starts is stopped and dropped, whatever happens. `atHead` runs on the database and
 * the indexer at the head, before the scores are read.
 */
export async function runSeed(
  seed: number,
  size: SimSize,
  say: (s: string) => void,
  options: {
    snapshots?: readonly number[];
    start?: number | string;
    atHead?: (sql: Sql, indexer: Indexer) => Promise<void>;
  } = {},
): Promise<{ truth: GroundTruth; scored: Scored }> {
  const { snapshots = SNAPSHOTS } = options;
  const { genesisTimestamp, startTimestamp } = historyAt(options.start);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "eval-scoring-"));
  const chain = await startDevChain({ dataDir, seed, genesisTimestamp });
  const db = await createTestDatabase("eval_scoring");
  const sql = connect(db.url, { max: 4 });
  try {
    const deployment = await deploy(chain.rpcUrl, { dataDir });
    const groundTruthPath = path.join(dataDir, "ground-truth.json");
    say(`seed ${seed}: simulating ${size.days} day(s), ${size.tokens} tokens, ${size.wallets} wallets`);
    await runSimulation({ rpcUrl: chain.rpcUrl, deployment, seed, ...size, startTimestamp, groundTruthPath });
    const truth = JSON.parse(readFileSync(groundTruthPath, "utf8")) as GroundTruth;

    say(`seed ${seed}: indexing`);
    // The indexer sees the chain as it was at each snapshot: the head it is told is capped there.
    const rpc = new Rpc({ url: chain.rpcUrl });
    const realHead = rpc.blockNumber;
    let cap = 0;
    rpc.blockNumber = async () => Math.min(await realHead(), cap);
    const ix = await Indexer.create({ sql, rpc, profile: devchainProfile(deployment), fullRefreshIntervalMs: 0 });
    const { fromBlock, throughBlock } = truth.timeline;
    const levelsOverTime: Scored["levelsOverTime"] = [];
    for (const at of snapshots) {
      cap = at === 1 ? Number.POSITIVE_INFINITY : Math.round(fromBlock + at * (throughBlock - fromBlock));
      let cycles = 0;
      while ((await ix.cycle()).step !== "idle")
        if (++cycles > MAX_CYCLES) throw new Error("the indexer did not reach the head");
      await ix.refreshAll();
      levelsOverTime.push([
        ...(await sql<
          { address: string; riskLevel: string }[]
        >`select address, risk_level as "riskLevel" from token_scores`),
      ]);
    }
    await options.atHead?.(sql, ix);

    type TokenRow = {
      address: string;
      risk_score: number;
      risk_level: string;
      flags: string[];
      flag_evidence: FlagEvidence[];
    } & Scored["tokens"][number]["metrics"];
    const tokens = await sql<TokenRow[]>`
      select s.address, s.risk_score, s.risk_level, s.flags, s.flag_evidence, m.holder_count as "holderCount",
             m.holder_growth_1h_pct as "holderGrowth1hPct", m.volume_24h_usd as "volume24hUsd"
        from token_scores s join token_metrics m using (address) order by s.address`;
    const wallets = await sql<{ address: string; classification: string; reputation_score: number }[]>`
      select address, classification, reputation_score from wallet_scores order by address`;
    const db = createDb(sql);
    const [{ head }] = await sql<
      { head: number }[]
    >`select extract(epoch from max(indexed_block_time))::float8 as head from sync_state`;
    const published = {
      tokens: await Promise.all(tokens.map(async (t) => (await getTokenScore(db, t.address))!)),
      wallets: await Promise.all(wallets.map(async (w) => (await getWalletScore(db, w.address))!)),
      // As of the indexed head, so a profile's age is the same at any hour.
      profiles: await Promise.all(
        tokens.map(async (t) => (await getTokenProfile(db, t.address, new Date(head * 1000)))!),
      ),
    };
    return {
      truth,
      scored: {
        tokens: tokens.map((t) => ({
          address: t.address,
          riskScore: t.risk_score,
          riskLevel: t.risk_level,
          flags: t.flags,
          evidence: t.flag_evidence,
          metrics: { holderCount: t.holderCount, holderGrowth1hPct: t.holderGrowth1hPct, volume24hUsd: t.volume24hUsd },
        })),
        wallets: new Map(wallets.map((w) => [w.address, w.classification])),
        reputations: new Map(wallets.map((w) => [w.address, w.reputation_score])),
        levelsOverTime,
        published,
      },
    };
  } finally {
    await sql.end();
    await chain.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
