import type postgres from "postgres";
import { loadDataset } from "@/scripts/dataset";

/**
 * Until the indexer fills the database from the dev chain, a first start loads the generated
 * dataset; later starts find it there and keep it.
 */
export async function loadInitialData(sql: postgres.Sql, say: (line: string) => void): Promise<void> {
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from tokens`;
  if (n > 0) return;
  say("loading the generated dataset (first start only)...");
  await loadDataset(sql, { size: "small", seed: 1 });
}
