import postgres from "postgres";
import { connect } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { loadDataset, SIZES } from "@/scripts/dataset";
import { databaseUrl, serverUrl } from "@/tests/setup/database";

/** The API benchmark's database: the large dataset (100,000 tokens) loaded with COPY, seed 42. */
export const BENCH_DB = "oci_bench_api";

async function isLoaded(url: string): Promise<boolean> {
  const admin = postgres(serverUrl(), { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${BENCH_DB}`;
  await admin.end();
  if (!exists) return false;
  const s = connect(url, { max: 1 });
  try {
    const [{ n }] = await s<{ n: number }[]>`select count(*)::int as n from tokens`;
    return n === SIZES.large.tokens;
  } catch {
    return false;
  } finally {
    await s.end();
  }
}

/**
 * Reuses the benchmark database when it holds the whole large dataset (migrating it to the
 * current schema) unless `reuse` is false, else creates and loads it: a few minutes of COPY.
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
  const s = connect(url, { max: 4 });
  const started = Date.now();
  let reported = 0;
  const onProgress = (p: { message: string }) => {
    if (Date.now() - reported < 10_000) return;
    reported = Date.now();
    say(p.message);
  };
  await loadDataset(s, { size: "large", seed: 42, copy: true, onProgress });
  say(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await s.end();
  return url;
}
