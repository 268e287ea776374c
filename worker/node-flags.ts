/**
 * Node's flags for a process that runs the indexer: the worker (`npm run worker`, the embedded
 * product's worker, the benchmarks' worker child) and bench:backfill, which loads a chain with it.
 * A backfill range allocates many short-lived rows and objects; young-generation semi-spaces of
 * 64 MB (Node 20's default is 16) let most of them die there instead of being copied and promoted:
 * 5% off the 5,000-token load's wall clock and 6% off its CPU (docs/scaling.md).
 */
export const INDEXER_NODE_FLAGS = ["--max-semi-space-size=64"];

/**
 * And for a bulk load (bench:backfill, and bench:api, bench:scale and bench:pages, which bulk-load
 * their large fixture: bench/lib/bench-database.ts), which holds a chain's balances and positions in the process
 * until its backfill ends (worker/derive/held.ts): about 1.2 GB more at 5M actions, which Node
 * 20's default old generation (4 GB here) left to a collector running almost without pause.
 */
export const BULK_LOAD_NODE_FLAGS = [...INDEXER_NODE_FLAGS, "--max-old-space-size=8192"];
