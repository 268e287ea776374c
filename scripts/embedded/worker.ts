import { type ChildProcess, spawn } from "node:child_process";
import { INDEXER_NODE_FLAGS } from "@/worker/node-flags";

/** The worker as a child process (`npm run worker`'s entry), against the embedded database. */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...INDEXER_NODE_FLAGS, "--import", "tsx", "worker/index.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CHAIN_PROFILE: "devchain", POLL_INTERVAL_MS: "500", ...env },
  });
}
