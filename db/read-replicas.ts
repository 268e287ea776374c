import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import { connect, createDb, type Db, getDb, queryPrepared, requestBound } from "./client";
import { boundToDeadline } from "./request-deadline";

/**
 * Reads from streaming replicas (DATABASE_READ_URL). Each response reads one database: the
 * primary or one replica, chosen per request (round robin over the usable ones), and its indexed
 * block and data version are that database's own (readView), so a lagging replica answers as of
 * its own block, under its own header. A replica is usable while its last probe (every second,
 * in the background) reached it and found its indexed block at most READ_REPLICA_MAX_LAG_BLOCKS
 * behind the primary's; one that fails a request with a connection error is set aside until the
 * next probe, and the request is read again on the primary. With none usable, the primary reads.
 * Writes, metering and keys always go to the primary (getDb, getAuthSql).
 */

type Replica = { url: string; db: Db; usable: boolean };
type Replicas = { list: Replica[]; next: number; probedAt: number; probing: Promise<void> | null };

/** How often the replicas' reach and lag are checked. */
const PROBE_MS = 1_000;

const store = globalThis as typeof globalThis & {
  __readReplicas?: Replicas;
  __readScope?: AsyncLocalStorage<Db>;
};
const scope = (store.__readScope ??= new AsyncLocalStorage<Db>());

function replicas(): Replicas {
  store.__readReplicas ??= {
    list: config.DATABASE_READ_URL.map((url, i) => ({
      url,
      db: createDb(boundToDeadline(connect(url, { connection: requestBound(`onchain-intel-read-${i}`) }))),
      usable: false,
    })),
    next: 0,
    probedAt: Number.NEGATIVE_INFINITY,
    probing: null,
  };
  return store.__readReplicas;
}

export const hasReplicas = () => config.DATABASE_READ_URL.length > 0;

export type ReadView = { indexedBlock: number | null; dataVersion: number };

/** The indexed block and data version `db` itself has (a replica's lag behind the primary's). */
export async function readView(db: Db): Promise<ReadView> {
  const [row] = await queryPrepared<{ indexed_block: string; data_version: string }>(
    db,
    sql`select indexed_block, data_version from sync_state order by chain_id limit 1`,
  );
  return row
    ? { indexedBlock: Number(row.indexed_block), dataVersion: Number(row.data_version) }
    : { indexedBlock: null, dataVersion: 0 };
}

const blockOf = (db: Db) =>
  readView(db).then(
    (v) => v.indexedBlock ?? 0,
    () => null,
  );

/** Checks every replica's reach and lag against the primary's indexed block (the primary unreachable: any lag). */
async function probe(state: Replicas): Promise<void> {
  const [primary, ...blocks] = await Promise.all([blockOf(getDb()), ...state.list.map((r) => blockOf(r.db))]);
  state.list.forEach((r, i) => {
    const block = blocks[i];
    r.usable = block !== null && (primary === null || primary - block <= config.READ_REPLICA_MAX_LAG_BLOCKS);
  });
  state.probedAt = Date.now();
}

/** Probes again when the last probe is older than PROBE_MS; only the first probe of a process is waited for. */
function probed(state: Replicas): Promise<void> | undefined {
  if (Date.now() - state.probedAt < PROBE_MS || state.probing) return state.probing ?? undefined;
  const first = state.probedAt === Number.NEGATIVE_INFINITY;
  const running = probe(state).finally(() => {
    state.probing = null;
  });
  state.probing = running;
  return first ? running : undefined;
}

/** A usable replica, taken in turn, or the primary when none is. */
export async function chooseReadDb(): Promise<Db> {
  if (!hasReplicas()) return getDb();
  const state = replicas();
  await probed(state);
  const usable = state.list.filter((r) => r.usable);
  if (usable.length === 0) return getDb();
  return usable[state.next++ % usable.length].db;
}

const isReplica = (db: Db) => db !== getDb();

/** The database the running request reads chain data from (readOn), the primary outside one. */
export const readDb = (): Db => scope.getStore() ?? getDb();

/** A failure of the replica itself (gone, shutting down, a read cancelled by its replay): the primary answers. */
const CONNECTION = /^(CONNECTION_|CONNECT_TIMEOUT|ECONN|EPIPE|ETIMEDOUT)/;
const REPLICA_STATES = new Set(["57P01", "57P02", "57P03", "40001"]);

function replicaFailed(db: Db, err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? "");
  const down = CONNECTION.test(code);
  if (down) {
    const replica = replicas().list.find((r) => r.db === db);
    if (replica) replica.usable = false;
  }
  return down || REPLICA_STATES.has(code);
}

/**
 * Runs `work` reading from one database (chooseReadDb), which readDb returns within it. A
 * replica's failure runs `work` again on the primary, so a replica going down costs no error
 * while the primary can answer: `work` must only read.
 */
export async function readOn<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const db = await chooseReadDb();
  if (!isReplica(db)) return work(db);
  try {
    return await scope.run(db, () => work(db));
  } catch (err) {
    if (!replicaFailed(db, err)) throw err;
    const primary = getDb();
    return scope.run(primary, () => work(primary));
  }
}

/** Closes the replicas' pools (tests, shutdown). */
export async function closeReplicas(): Promise<void> {
  const state = store.__readReplicas;
  store.__readReplicas = undefined;
  await Promise.all(state?.list.map((r) => r.db.$client.end()) ?? []);
}
