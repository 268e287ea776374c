import { type ChildProcess, spawn } from "node:child_process";

/** The worker as a child process (`npm run worker`'s entry), against the embedded database. */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CHAIN_PROFILE: "devchain", POLL_INTERVAL_MS: "500", ...env },
  });
}
