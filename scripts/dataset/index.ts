/** The synthetic dataset: a deterministic generator and its loader (see README.md). */
export { type GenerateProgress, generateDataset } from "./generate";
export { checkInvariants, datasetDigest, INVARIANTS } from "./invariants";
export { type LoadOptions, type LoadProgress, type LoadSummary, loadDataset } from "./load";
export { type DatasetOptions, type DatasetSize, type ResolvedOptions, resolveOptions, SIZES } from "./options";
export { type Row, type RowSink, TABLE_NAMES, TABLES, type TableName } from "./tables";
