/**
 * Node's flags for a process that runs the indexer: the worker (`npm run worker`, the embedded
 * product's worker, the benchmarks' worker child).
 * A backfill range allocates many short-lived rows and objects; young-generation semi-spaces of
 * 64 MB (Node 20's default is 16) let most of them die there instead of being copied and promoted:
 * 5% off the 5,000-token load's wall clock and 6% off its CPU (docs/scaling.md).
 */
export const INDEXER_NODE_FLAGS = ["--max-semi-space-size=64"];

/**
 * And for a bulk load (bench:backfill, and bench:api, bench:scale and bench:pages, which bulk-load
 * their large fixture: bench/lib/bench-database.ts), which holds a chain's balances and positions in the process
 * until its backfill ends (worker/derive/held.ts): an old generation of 8 GB, since they add about
 * 1.2 GB at 5M actions, which Node 20's default (4 GB here) left to a collector running almost
 * without pause; and semi-spaces of 256 MB, so that a range's rows die young instead of being
 * promoted into an old generation whose every collection marks the held books (docs/scaling.md).
 */
export const BULK_LOAD_NODE_FLAGS = ["--max-semi-space-size=256", "--max-old-space-size=8192"];
