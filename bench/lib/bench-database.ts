import postgres from "postgres";
import { connect } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { headBlockOf, type LoadProgress, loadFixture, SIZES } from "@/scripts/fixtures";
import { databaseUrl, serverUrl } from "@/tests/setup/database";

/** The API benchmark's database: the large fixture chain (100,000 tokens, seed 42) indexed by the worker. */
export const BENCH_DB = "oci_bench_fixture";

async function isLoaded(url: string): Promise<boolean> {
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${BENCH_DB}`;
  await admin.end();
  if (!exists) return false;
  const s = connect(url, { max: 1 });
  try {
    // The worker reached the head: the load finished.
    const [{ n, head }] = await s<{ n: number; head: string | null }[]>`
      select (select count(*)::int from tokens) as n, (select indexed_block::text from sync_state) as head`;
    return n === SIZES.large.tokens && head !== null && Number(head) === headBlockOf(SIZES.large.spanDays);
  } catch {
    return false;
  } finally {
    await s.end();
  }
}

/**
 * Reuses the benchmark database when it holds the whole large fixture (migrating it to the
 * current schema) unless `reuse` is false, else creates and loads it through the worker.
 */
export async function ensureBenchDatabase(say: (line: string) => void, { reuse = true } = {}): Promise<string> {
  const url = databaseUrl(BENCH_DB);
  if (reuse && (await isLoaded(url))) {
    say(`reusing database ${BENCH_DB}`);
    await runMigrations(url);
    return url;
  }
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.unsafe(`create database ${BENCH_DB}`);
  await admin.end();
  await runMigrations(url);
  let reported = 0;
  const onProgress = (p: LoadProgress) => {
    if (Date.now() - reported < 10_000) return;
    reported = Date.now();
    const eta = p.etaSeconds === null ? "" : `, about ${Math.ceil(p.etaSeconds / 60)} min to go`;
    say(
      `indexing block ${p.indexedBlock.toLocaleString("en")} of ${p.headBlock.toLocaleString("en")}, ` +
        `${Math.round(p.eventsPerSecond)} events/s${eta}`,
    );
  };
  const loaded = await loadFixture(url, { size: "large", seed: 42, bulk: true, onProgress });
  say(`loaded in ${loaded.seconds.toFixed(0)} s`);
  // What autovacuum does to a production server's tables after a load (this machine's server runs
  // none): the visibility map, which lets the counts behind exact totals read their indexes alone.
  const s = connect(url, { max: 1, connection: { statement_timeout: 0 } });
  await s`vacuum (analyze)`;
  await s.end();
  say("vacuumed");
  return url;
}

/** A database the caller loaded (a fixture of another size, say), migrated to the current schema. */
export async function loadedDatabase(say: (line: string) => void, name: string): Promise<string> {
  const url = databaseUrl(name);
  say(`using database ${name} as it is`);
  await runMigrations(url);
  return url;
}
