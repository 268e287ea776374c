import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { PostgresOptions } from "./postgres";
import { EmbeddedPostgresError, type FailureReason } from "./postgres-failure";

export type EmbeddedDatabase = {
  url: string;
  /** Where the data lives, and why there when it is not the data directory asked for (postgres-reach.ts). */
  dataDir: string;
  movedBecause: string | null;
  child: ChildProcess;
  stop: () => Promise<void>;
};

const KEEPER = path.join(import.meta.dirname, "database-process.ts");

type KeeperMessage =
  | { databaseUrl: string; dataDir: string; movedBecause: string | null }
  | { error: string; reason: FailureReason };

/**
 * Starts the embedded PostgreSQL in its keeper process and resolves once it accepts connections;
 * a failed start rejects with an EmbeddedPostgresError whose message names the fix. The keeper
 * has a process group of its own, so a Ctrl-C in the terminal reaches only its parent, which
 * stops the database last, after everything that writes to it.
 */
export async function startEmbeddedDatabase(options: PostgresOptions): Promise<EmbeddedDatabase> {
  const child = spawn(process.execPath, ["--import", "tsx", KEEPER, JSON.stringify(options)], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const message = await new Promise<KeeperMessage>((resolve, reject) => {
    child.once("message", (m) => resolve(m as KeeperMessage));
    void exited.then(() =>
      reject(
        new EmbeddedPostgresError(
          `The embedded PostgreSQL's process exited (${child.exitCode}) before the server started.`,
          "failed",
        ),
      ),
    );
  });
  if ("error" in message) {
    await exited;
    throw new EmbeddedPostgresError(message.error, message.reason);
  }
  return {
    url: message.databaseUrl,
    dataDir: message.dataDir,
    movedBecause: message.movedBecause,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
