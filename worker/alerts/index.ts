/**
 * Alerts in the worker. Evaluation: one `new AlertEvaluator()` per worker, its `afterCycle` as
 * startWorker's afterCycle (or `evaluate(sql, now)` directly). Delivery:
 * `runOutboxSender(sql, { ...transportsFromConfig(), signal })` beside it, in any number of processes.
 */
export { AlertEvaluator, type EvaluationReport } from "./evaluate";
export { COOLDOWN_MS } from "./fire";
export { deliverDue, EMAIL_NOT_CONFIGURED, runOutboxSender, type SenderOptions, transportsFromConfig } from "./outbox";
