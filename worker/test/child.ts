import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { INDEXER_NODE_FLAGS } from "@/worker/node-flags";
import type { ChainProfile } from "@/worker/profiles";

const CHILD = path.join(import.meta.dirname, "worker-child.ts");

export type WorkerChild = {
  proc: ChildProcess;
  active: Promise<void>;
  standby: Promise<void>;
  caughtUp: Promise<number>;
  exited: Promise<void>;
};

/** Starts the worker in a child process (so it can be killed with SIGKILL). */
export function spawnWorker(
  databaseUrl: string,
  rpcUrl: string,
  profile: ChainProfile,
  env: Record<string, string> = {},
): WorkerChild {
  const proc = spawn(process.execPath, [...INDEXER_NODE_FLAGS, "--import", "tsx", CHILD], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      RPC_URL: rpcUrl,
      WORKER_PROFILE: JSON.stringify(profile),
      LOG_LEVEL: "error",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let buffer = "";
  const waiting: (() => void)[] = [];
  proc.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (const check of waiting) check();
  });
  const output = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve) => {
      waiting.push(() => {
        const m = buffer.match(re);
        if (m) resolve(m);
      });
    });
  const active = output(/^active$/m).then(() => undefined);
  const standby = output(/^standby$/m).then(() => undefined);
  const caughtUp = output(/caught-up (\d+)/).then((m) => Number(m[1]));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return { proc, active, standby, caughtUp, exited };
}

/** Stops a child gracefully and waits for it. */
export async function stopWorker(w: WorkerChild) {
  if (w.proc.exitCode === null) w.proc.kill("SIGTERM");
  await w.exited;
}
