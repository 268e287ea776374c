/**
 * The worker as a child process for crash tests: `node --import tsx worker/test/worker-child.ts`
 * with DATABASE_URL, RPC_URL and WORKER_PROFILE (a ChainProfile as JSON), optionally RPC_WS_URL,
 * POLL_INTERVAL_MS and FULL_REFRESH_MS (default 100 and 0: tests want every refresh). Prints its role
 * ("active" once it holds the lock) and "caught-up <block>" when a cycle ends idle at the head.
 */
import { startWorker } from "../worker";

const controller = new AbortController();
process.on("SIGTERM", () => controller.abort());
await startWorker({
  databaseUrl: process.env.DATABASE_URL!,
  rpcUrl: process.env.RPC_URL!,
  wsUrl: process.env.RPC_WS_URL,
  profile: JSON.parse(process.env.WORKER_PROFILE!),
  pollIntervalMs: Number(process.env.POLL_INTERVAL_MS ?? 100),
  fullRefreshIntervalMs: Number(process.env.FULL_REFRESH_MS ?? 0),
  rpcTimeoutMs: 2_000,
  signal: controller.signal,
  onRole: (role) => process.stdout.write(`${role}\n`),
  afterCycle: async ({ head, indexedBlock, step }) => {
    if (indexedBlock >= head && step === "idle") process.stdout.write(`caught-up ${indexedBlock}\n`);
  },
});
