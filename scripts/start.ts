/**
 * `npm start`: the whole product on embedded defaults. With no DATABASE_URL it runs an embedded
 * PostgreSQL on loopback (data in DATA_DIR/postgres); with no RPC_URL it starts the dev chain,
 * deploys the contracts and runs the market simulator; then the worker indexes the chain, the web
 * app serves the API and the dashboard, and one ready key per plan is printed. Ctrl-C stops
 * everything; a second start resumes.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { config, DATA_DIR, RUNTIME_FILE } from "@/lib/config";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded/database";
import { EmbeddedPostgresError } from "./embedded/postgres-failure";
import { ensureDevKeys } from "./embedded/dev-keys";
import { startChain, waitForHead, type RunningChain } from "./embedded/chain";
import { followChild, showProgress } from "./embedded/progress";
import { buildIfStale, startWeb, waitForHttp } from "./embedded/web";
import { embeddedWebEnv } from "./embedded/web-env";
import { startWorkerProcess } from "./embedded/worker";

const EMBEDDED_DB_PORT = Number(process.env.EMBEDDED_DB_PORT ?? 54329);
const DEVCHAIN_PORT = Number(process.env.DEVCHAIN_PORT ?? 8545);
const say = (line: string) => console.log(`[start] ${line}`);

const children: ChildProcess[] = [];
let chain: RunningChain | undefined;
let embeddedDb: EmbeddedDatabase | undefined;
let stopping = false;
const shutdown = new AbortController();

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  shutdown.abort();
  say("stopping...");
  await Promise.all(children.map(terminate));
  if (chain) await chain.chain.stop();
  if (embeddedDb) await embeddedDb.stop();
  rmSync(RUNTIME_FILE, { force: true });
  process.exit(code);
}
/** SIGTERM, then SIGKILL if the child has not exited within 5 s. */
function terminate(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

/** A child that dies takes the whole product down, loudly, rather than leaving half of it up. */
function supervise(child: ChildProcess, name: string) {
  children.push(child);
  child.once("exit", (code) => !stopping && (say(`${name} exited (${code})`), void stop(1)));
}

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const oldPglite = path.join(DATA_DIR, "pglite");
    if (existsSync(oldPglite)) say(`${oldPglite} (the earlier embedded database, PGlite) is no longer used; delete it with: rm -rf ${oldPglite}`);
    const dataDir = path.join(DATA_DIR, "postgres");
    embeddedDb = await startEmbeddedDatabase({ dataDir, port: EMBEDDED_DB_PORT });
    databaseUrl = embeddedDb.url;
    // Stopped last, after everything that writes to it; its exit otherwise is fatal.
    embeddedDb.child.once("exit", (code) => !stopping && (say(`embedded database exited (${code})`), void stop(1)));
    // The keys CLI and other tools find the embedded database through this file.
    writeFileSync(RUNTIME_FILE, JSON.stringify({ databaseUrl, pid: process.pid }));
    say(`embedded PostgreSQL on ${databaseUrl}, data in ${dataDir}`);
  }
  await runMigrations(databaseUrl);

  const sql = connect(databaseUrl, { max: 2 });
  const keys = await ensureDevKeys(createDb(sql), DATA_DIR);
  const [{ checkpoint }] = await sql<{ checkpoint: number }[]>`select coalesce(max(indexed_block), 0)::int as checkpoint from sync_state`;
  await sql.end();

  if (!config.RPC_URL) {
    say(`dev chain on 127.0.0.1:${DEVCHAIN_PORT}; deploying and simulating the market...`);
    chain = await startChain(DATA_DIR, DEVCHAIN_PORT);
    supervise(chain.simulator, "market simulator");
    followChild(chain.simulator, (m) => {
      const p = m.simulator as { phase: string; blocksDone: number; blocksTotal: number; etaMs: number | null; events: number } | undefined;
      if (!p || p.phase !== "backfill") return null;
      return ["sim", { label: "market", done: p.blocksDone, total: p.blocksTotal, etaSeconds: p.etaMs === null ? null : p.etaMs / 1000, note: `${p.events} events` }];
    });
  }
  if (chain && checkpoint > 0) {
    say(`rebuilding the dev chain up to the worker's checkpoint (block ${checkpoint})...`);
    await waitForHead(chain.chain.rpcUrl, checkpoint, shutdown.signal);
  }
  const worker = startWorkerProcess({ DATABASE_URL: databaseUrl, DATA_DIR, ...(config.RPC_URL ? {} : { CHAIN_PROFILE: "devchain" }) });
  supervise(worker, "worker");
  followChild(worker, (m) => {
    if (m.msg !== "sync progress" || m.phase === "live") return null;
    const p = m as unknown as { blocksDone: number; blocksTotal: number; etaSeconds: number | null; indexedBlock: number; headBlock: number };
    return ["worker", { label: "indexed", done: p.blocksDone, total: p.blocksTotal, etaSeconds: p.etaSeconds, note: `block ${p.indexedBlock}/${p.headBlock}` }];
  });

  await buildIfStale(say);
  const web = startWeb(config.PORT, { DATABASE_URL: databaseUrl, ...embeddedWebEnv(DATA_DIR, config.PORT) });
  supervise(web, "web app");
  const base = `http://localhost:${config.PORT}`;
  await waitForHttp(`${base}/v1/health`, 60_000);

  showProgress("web", { label: "web", done: 1, total: 1, etaSeconds: null, note: base });
  process.stderr.write("\n");
  say(`ready: ${base}  (API: ${base}/v1, OpenAPI: ${base}/v1/openapi.json)`);
  for (const [plan, key] of Object.entries(keys)) say(`  ${plan.padEnd(8)} key: ${key}`);
  say(`try: curl -H "Authorization: Bearer ${keys.api_tier}" "${base}/v1/tokens?limit=5"`);
}

main().catch((err) => {
  // A failed embedded database start says what to do in one line; anything else keeps its stack.
  if (err instanceof EmbeddedPostgresError) say(err.message);
  else console.error(err);
  void stop(1);
});
