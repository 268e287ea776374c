/**
 * Node's flags for a process that runs the indexer: the worker (`npm run worker`, the embedded
 * product's worker, the benchmarks' worker child) and bench:backfill, which loads a chain with it.
 * A backfill range allocates many short-lived rows and objects; young-generation semi-spaces of
 * 64 MB (Node 20's default is 16) let most of them die there instead of being copied and promoted:
 * 5% off the 5,000-token load's wall clock and 6% off its CPU (docs/scaling.md).
 */
export const INDEXER_NODE_FLAGS = ["--max-semi-space-size=64"];
