/** The synthetic dataset: a deterministic generator and its loader (see README.md). */
export { generateDataset, type GenerateProgress } from "./generate";
export { loadDataset, type LoadOptions, type LoadProgress, type LoadSummary } from "./load";
export { resolveOptions, SIZES, type DatasetOptions, type DatasetSize, type ResolvedOptions } from "./options";
export { TABLE_NAMES, TABLES, type Row, type RowSink, type TableName } from "./tables";
export { checkInvariants, datasetDigest, INVARIANTS } from "./invariants";
