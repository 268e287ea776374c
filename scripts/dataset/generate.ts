import { CHAIN_ID, Chain, FINALITY_DEPTH, HOUR_MS } from "./chain";
import { Ids, KIND } from "./ids";
import { type MarketContext, SCORE_AVG_REPUTATION, SCORE_SUMMARY, SCORE_SUMMARY_HASH, type ScoreDraft, simulateToken } from "./market";
import { type DatasetOptions, type ResolvedOptions, resolveOptions } from "./options";
import { Pair } from "./pair";
import { planTokens } from "./plans";
import { Population } from "./population";
import { Spool } from "./spool";
import { summaryHash, withReputation } from "./summary";
import { iso, METHOD_VERSION, num, type RowSink } from "./tables";
import { walletReputation } from "./wallet-reputation";
import { WalletStats } from "./wallet-stats";

export type GenerateProgress = { phase: "tokens" | "wallets" | "scores" | "blocks"; done: number; total: number };

const DEX = "uniswap-v2";
/** Tokens simulated between two waits on the sink. */
const TOKENS_PER_DRAIN = 32;

/**
 * Generates the whole dataset into `sink`, token by token: each token's rows are written as soon
 * as it is simulated, so memory holds one token's market plus per-wallet totals, never the events.
 * Wallet rows, wallet and token scores and blocks follow once every token has run (the token score
 * drafts wait on disk meanwhile).
 */
export async function generateDataset(options: DatasetOptions, sink: RowSink, onProgress?: (p: GenerateProgress) => void): Promise<ResolvedOptions> {
  const o = resolveOptions(options);
  const ids = new Ids(o.seed);
  const chain = new Chain(o.seed, o.now, o.spanDays);
  const pop = new Population(o.seed, ids, o.wallets, chain.startMs, chain.nowMs);
  const stats = new WalletStats(o.wallets);
  const ctx: MarketContext = {
    chain,
    pop,
    ids,
    stats,
    sink,
    seed: o.seed,
    dex: DEX,
    weth: ids.address(KIND.contract, 0),
    factory: ids.address(KIND.contract, 2),
  };
  const nowIso = iso(chain.nowMs);

  writeQuotePool(ctx, ids.address(KIND.contract, 1), ids.address(KIND.contract, 3));

  const plans = planTokens(o, chain, pop, ids);
  const drafts = new Spool<ScoreDraft>();
  try {
    for (let done = 1; done <= plans.length; done++) {
      await drafts.push(simulateToken(ctx, plans[done - 1]));
      if (done % TOKENS_PER_DRAIN === 0 || done === plans.length) {
        await sink.drain?.();
        onProgress?.({ phase: "tokens", done, total: plans.length });
      }
    }

    const reputation = new Float64Array(o.wallets);
    for (let w = 0; w < o.wallets; w++) {
      if (!stats.active(w)) continue;
      const r = walletReputation(stats, w);
      reputation[w] = r.reputation;
      const address = pop.addresses[w];
      const classification = pop.personaOf(w);
      sink.add("wallets", [
        address,
        iso(stats.firstSeen[w]),
        iso(stats.lastSeen[w]),
        String(stats.trades[w]),
        pop.funder(w),
        pop.clusterId(w),
        "0",
        classification,
        stats.sectorPreference(w),
        num(stats.realizedPnl[w] + stats.unrealizedPnl[w], 2),
        r.pnlConfidence,
        num(stats.portfolioUsd[w], 2),
        nowIso,
      ]);
      sink.add("wallet_scores", [
        address,
        num(r.reputation, 1),
        r.confidence,
        classification,
        num(r.winRate, 4),
        num(r.entryTiming, 1),
        num(r.consistency, 1),
        num(r.riskDrawdown, 1),
        String(stats.trades[w]),
        METHOD_VERSION,
        nowIso,
      ]);
      if (w % 10_000 === 0) await sink.drain?.();
    }
    onProgress?.({ phase: "wallets", done: o.wallets, total: o.wallets });

    let scored = 0;
    for await (const { row, top10, summary } of drafts.records()) {
      const avg = Math.round((top10.length ? top10.reduce((s, w) => s + reputation[w], 0) / top10.length : 0) * 10) / 10;
      const text = withReputation(summary, avg);
      row[SCORE_AVG_REPUTATION] = num(avg, 1);
      row[SCORE_SUMMARY] = text;
      row[SCORE_SUMMARY_HASH] = summaryHash(text);
      sink.add("token_scores", row);
      if (++scored % 10_000 === 0) await sink.drain?.();
    }
  } finally {
    drafts.remove();
  }
  onProgress?.({ phase: "scores", done: plans.length, total: plans.length });

  let blocks = 0;
  for (const b of chain.referencedBlocks()) {
    sink.add("blocks", [String(b), ids.blockHash(b), ids.blockHash(b - 1), iso(chain.timeOf(b))]);
    if (++blocks % 50_000 === 0) await sink.drain?.();
  }
  const head = chain.lastBlock;
  const headTime = iso(chain.timeOf(head));
  sink.add("sync_state", [
    String(CHAIN_ID),
    String(head),
    ids.blockHash(head),
    headTime,
    String(head),
    headTime,
    nowIso,
    nowIso,
    String(FINALITY_DEPTH),
    "1",
    nowIso,
  ]);
  onProgress?.({ phase: "blocks", done: blocks, total: blocks });
  await sink.drain?.();
  return o;
}

/** The WETH/USDC pair that prices WETH: created at the first block, one Sync per hour. */
function writeQuotePool({ chain, sink, weth, factory, dex }: MarketContext, usdc: string, address: string): void {
  const wethFirst = weth < usdc;
  const reserves = (ms: number) => {
    // ~8,000 WETH deep, drifting slowly as liquidity comes and goes.
    const wethEth = 8000 * (1 + 0.1 * Math.sin((ms - chain.startMs) / (37 * HOUR_MS)));
    const w = BigInt(Math.round(wethEth * 1e6)) * 10n ** 12n;
    const u = BigInt(Math.round(wethEth * chain.ethUsd(ms) * 1e6));
    return { wethEth, ordered: wethFirst ? [w, u] : [u, w] };
  };
  const first = reserves(chain.startMs).ordered;
  const lpSupply = new Pair().add(first[0], first[1]).lp + 1000n;
  let last = chain.firstBlock;
  for (let ms = chain.startMs; ms <= chain.nowMs; ms += HOUR_MS) {
    last = chain.blockAt(ms);
    const [r0, r1] = reserves(chain.timeOf(last)).ordered;
    sink.add("pool_reserves", [address, String(last), String(chain.claimLogs(last, 1)), r0.toString(), r1.toString()]);
  }
  const end = reserves(chain.timeOf(last));
  sink.add("pools", [
    address,
    factory,
    dex,
    wethFirst ? weth : usdc,
    wethFirst ? usdc : weth,
    end.ordered[0].toString(),
    end.ordered[1].toString(),
    lpSupply.toString(),
    num(2 * end.wethEth * chain.ethUsd(chain.nowMs), 2),
    String(chain.firstBlock),
    String(last),
  ]);
}
