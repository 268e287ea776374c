/**
 * Alerts in the worker. Evaluation: `evaluateAlertsAfterCycle` as startWorker's afterCycle
 * (or `evaluateAlerts(sql, { now })` directly). Delivery: `runOutboxSender(sql, { ...transportsFromConfig(), signal })`
 * beside it, in any number of processes.
 */
export { evaluateAlerts, evaluateAlertsAfterCycle, type EvaluationReport } from "./evaluate";
export { COOLDOWN_MS } from "./fire";
export { deliverDue, EMAIL_NOT_CONFIGURED, runOutboxSender, transportsFromConfig, type SenderOptions } from "./outbox";
