/**
 * `npm start`: the whole product on embedded defaults. With no DATABASE_URL it runs an embedded
 * PostgreSQL on loopback (data in DATA_DIR/postgres); with no RPC_URL it starts the dev chain,
 * deploys the contracts and runs the market simulator; then the worker indexes the chain, the web
 * app serves the API and the dashboard, and on the embedded defaults (none of DATABASE_URL, RPC_URL,
 * RESEND_API_KEY set) one ready key per plan is printed, with its dev account. Ctrl-C stops
 * everything; a second start resumes. A component that dies is restarted (scripts/embedded/supervisor.ts).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { config, DATA_DIR, RUNTIME_FILE } from "@/lib/config";
import { type RunningChain, startChain, waitForHead } from "./embedded/chain";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "./embedded/database";
import { type DevKey, ensureDevKeys } from "./embedded/dev-keys";
import { EmbeddedPostgresError } from "./embedded/postgres-failure";
import { followChild, showProgress } from "./embedded/progress";
import { Supervisor } from "./embedded/supervisor";
import { buildIfStale, startWeb, waitForHttp } from "./embedded/web";
import { embeddedWebEnv } from "./embedded/web-env";
import { startWorkerProcess } from "./embedded/worker";

const EMBEDDED_DB_PORT = Number(process.env.EMBEDDED_DB_PORT ?? 54329);
const DEVCHAIN_PORT = Number(process.env.DEVCHAIN_PORT ?? 8545);
const say = (line: string) => console.log(`[start] ${line}`);

let chain: RunningChain | undefined;
let embeddedDb: EmbeddedDatabase | undefined;
/** Stopped in this order: what reads and writes first, the database last. */
const supervisors: Supervisor[] = [];
let stopping = false;
const shutdown = new AbortController();

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  shutdown.abort();
  say("stopping...");
  for (const s of supervisors) await s.hold();
  rmSync(RUNTIME_FILE, { force: true });
  process.exit(code);
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));

async function indexedBlock(databaseUrl: string): Promise<number> {
  const sql = connect(databaseUrl, { max: 1 });
  try {
    const [{ block }] = await sql<
      { block: number }[]
    >`select coalesce(max(indexed_block), 0)::int as block from sync_state`;
    return block;
  } finally {
    await sql.end();
  }
}

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  let databaseUrl = config.DATABASE_URL;
  const database = new Supervisor(
    "embedded database",
    async () => {
      embeddedDb = await startEmbeddedDatabase({ dataDir: path.join(DATA_DIR, "postgres"), port: EMBEDDED_DB_PORT });
      return embeddedDb.child;
    },
    say,
    // A killed keeper would leave its server running: PostgreSQL gets the time a clean shutdown takes.
    { graceMs: 120_000 },
  );
  if (!databaseUrl) {
    const oldPglite = path.join(DATA_DIR, "pglite");
    if (existsSync(oldPglite))
      say(
        `${oldPglite} (the earlier embedded database, PGlite) is no longer used; delete it with: rm -rf ${oldPglite}`,
      );
    await database.run();
    databaseUrl = embeddedDb!.url;
    // The keys CLI and other tools find the embedded database through this file.
    writeFileSync(RUNTIME_FILE, JSON.stringify({ databaseUrl, pid: process.pid }));
    const { dataDir, movedBecause } = embeddedDb!;
    say(`embedded PostgreSQL on ${databaseUrl}, data in ${dataDir}${movedBecause ? ` (${movedBecause})` : ""}`);
  }
  await runMigrations(databaseUrl);
  const dbUrl = databaseUrl;

  // Dev keys, like the dev sign-in, exist only where nothing real is at stake.
  let devKeys: DevKey[] = [];
  if (config.launchesEmbeddedDefaults) {
    const sql = connect(dbUrl, { max: 2 });
    devKeys = await ensureDevKeys(createDb(sql), DATA_DIR);
    await sql.end();
  }

  const worker = new Supervisor(
    "worker",
    async () => {
      const child = startWorkerProcess({
        DATABASE_URL: dbUrl,
        DATA_DIR,
        ...(config.RPC_URL ? {} : { CHAIN_PROFILE: "devchain" }),
      });
      followChild(child, (m) => {
        if (m.msg !== "sync progress" || m.phase === "live") return null;
        const p = m as unknown as {
          blocksDone: number;
          blocksTotal: number;
          etaSeconds: number | null;
          indexedBlock: number;
          headBlock: number;
        };
        return [
          "worker",
          {
            label: "indexed",
            done: p.blocksDone,
            total: p.blocksTotal,
            etaSeconds: p.etaSeconds,
            note: `block ${p.indexedBlock}/${p.headBlock}`,
          },
        ];
      });
      return child;
    },
    say,
  );
  // The dev chain lives in memory: a new node is rebuilt from the recipe and the outside
  // transactions it recorded. The worker waits until the rebuilt chain reaches its checkpoint,
  // so it resumes there instead of taking the rebuild in progress for a reorg.
  let workerStarted = false;
  const devChain = new Supervisor(
    "market simulator",
    async () => {
      if (workerStarted) await worker.hold();
      await chain?.chain.stop();
      const checkpoint = await indexedBlock(dbUrl);
      chain = await startChain(DATA_DIR, DEVCHAIN_PORT);
      followChild(chain.simulator, (m) => {
        const p = m.simulator as
          | { phase: string; blocksDone: number; blocksTotal: number; etaMs: number | null; events: number }
          | undefined;
        if (p?.phase !== "backfill") return null;
        return [
          "sim",
          {
            label: "market",
            done: p.blocksDone,
            total: p.blocksTotal,
            etaSeconds: p.etaMs === null ? null : p.etaMs / 1000,
            note: `${p.events} events`,
          },
        ];
      });
      if (checkpoint > 0) {
        say(`rebuilding the dev chain up to the worker's checkpoint (block ${checkpoint})...`);
        await waitForHead(chain.chain.rpcUrl, checkpoint, shutdown.signal);
      }
      if (workerStarted) worker.resume();
      return chain.simulator;
    },
    say,
    { afterHold: async () => chain?.chain.stop() },
  );
  const web = new Supervisor(
    "web app",
    async () =>
      startWeb(config.PORT, {
        DATABASE_URL: dbUrl,
        ...embeddedWebEnv(DATA_DIR, config.PORT, config.launchesEmbeddedDefaults),
      }),
    say,
  );
  supervisors.push(web, worker, devChain, database);

  if (!config.RPC_URL) {
    say(`dev chain on 127.0.0.1:${DEVCHAIN_PORT}; deploying and simulating the market...`);
    await devChain.run();
  }
  await worker.run();
  workerStarted = true;

  await buildIfStale(say);
  await web.run();
  const base = `http://localhost:${config.PORT}`;
  await waitForHttp(`${base}/v1/health`, 60_000);

  showProgress("web", { label: "web", done: 1, total: 1, etaSeconds: null, note: base });
  process.stderr.write("\n");
  say(`ready: ${base}  (API: ${base}/v1, OpenAPI: ${base}/v1/openapi.json)`);
  say("a component that exits is restarted with backoff; the API and the dashboard keep serving meanwhile");
  sayDevKeys(devKeys, base);
}

/** The dev keys and accounts, or how to make a key where there are none. */
function sayDevKeys(keys: DevKey[], base: string) {
  if (keys.length === 0) {
    say(
      "no dev keys off the embedded defaults (DATABASE_URL, RPC_URL or RESEND_API_KEY is set): " +
        "npm run keys -- create --plan free",
    );
    return;
  }
  for (const { plan, email, key } of keys) {
    say(`  ${plan.padEnd(8)} key: ${key ?? "revoked or rotated; not minted again"}  (account ${email})`);
  }
  say(`sign in to the dashboard as any of these accounts with the dev sign-in: ${base}/signin`);
  const live = keys.find((k) => k.plan === "api_tier" && k.key) ?? keys.find((k) => k.key);
  if (live) say(`try: curl -H "Authorization: Bearer ${live.key}" "${base}/v1/tokens?limit=5"`);
}

main().catch((err) => {
  // A failed embedded database start says what to do in one line; anything else keeps its stack.
  if (err instanceof EmbeddedPostgresError) say(err.message);
  else console.error(err);
  void stop(1);
});
