/**
 * `npm run worker`: the indexer alone, against DATABASE_URL and RPC_URL with CHAIN_PROFILE
 * (production layout: one active worker holding the advisory lock, others on standby).
 * The launcher imports startWorker instead.
 */
import { pathToFileURL } from "node:url";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { devchainWsUrl } from "@/devchain/node";
import { getBilling } from "@/lib/billing/stripe";
import { config, requireDatabaseUrl } from "@/lib/config";
import { log } from "@/lib/log";
import { AlertEvaluator, runOutboxSender, transportsFromConfig } from "./alerts";
import { runMeterReporter } from "./billing/meter-reporter";
import { readDeployment } from "./profiles/devchain";
import { RawHistoryRetention } from "./retention";
import { SecurityScanner } from "./security/scanner";
import { startWorker } from "./worker";

export type { Progress } from "./indexer/indexer";
export { type ChainProfile, loadProfile } from "./profiles";
export { type CycleContext, startWorker, type WorkerOptions } from "./worker";

async function main() {
  const databaseUrl = requireDatabaseUrl();
  const profile = config.CHAIN_PROFILE;
  // The dev chain's deployment names its node; a real chain needs RPC_URL.
  const rpcUrl = config.RPC_URL ?? (profile === "devchain" ? readDeployment().rpcUrl : undefined);
  if (!rpcUrl) throw new Error(`RPC_URL is required for CHAIN_PROFILE=${profile}`);
  const wsUrl = config.RPC_WS_URL ?? (config.RPC_URL ? undefined : devchainWsUrl(rpcUrl));
  await runMigrations(databaseUrl);
  const controller = new AbortController();
  for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, () => controller.abort());
  // The outbox sender runs beside the indexer (in every worker, active or standby: claims skip locked rows).
  const senderSql = connect(databaseUrl, { max: 2 });
  const sender = runOutboxSender(senderSql, {
    ...transportsFromConfig(),
    appUrl: config.APP_URL,
    signal: controller.signal,
  });
  // API Tier usage goes to Stripe from every worker as well: a row sent twice is one meter event.
  const billing = getBilling();
  const meterReporter = billing && runMeterReporter(createDb(senderSql), billing, { signal: controller.signal });
  const evaluator = new AlertEvaluator();
  // Security checks run beside the indexer: a pass starts after a cycle at the head, and never delays the next.
  const security = new SecurityScanner({ rpcUrl, signal: controller.signal });
  const keepBlocks = config.RAW_HISTORY_RETENTION_BLOCKS;
  const retention = keepBlocks > 0 ? new RawHistoryRetention({ keepBlocks, signal: controller.signal }) : null;
  let lastLog = 0;
  await startWorker({
    databaseUrl,
    rpcUrl,
    wsUrl,
    profile,
    pollIntervalMs: config.POLL_INTERVAL_MS,
    signal: controller.signal,
    afterCycle: async (ctx) => {
      await security.afterCycle(ctx);
      await retention?.afterCycle(ctx);
      await evaluator.afterCycle(ctx);
    },
    onProgress: (p) => {
      if (Date.now() - lastLog < 5_000) return;
      lastLog = Date.now();
      log.info("sync progress", {
        ...p,
        blocksPerSecond: Math.round(p.blocksPerSecond),
        eventsPerSecond: Math.round(p.eventsPerSecond),
      });
    },
  });
  await security.idle();
  await retention?.idle();
  await sender;
  await meterReporter;
  await senderSql.end({ timeout: 5 });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (err) => {
      log.error("worker failed", { error: err instanceof Error ? err.stack : String(err) });
      process.exit(1);
    },
  );
}
