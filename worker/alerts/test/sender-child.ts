/**
 * The outbox sender alone in a process, configured from the environment as in production
 * (DATABASE_URL, RESEND_API_KEY, RESEND_BASE_URL, WEBHOOK_ALLOW_PRIVATE) plus SENDER_OPTIONS
 * (JSON), so a test can SIGKILL it mid-batch. SIGTERM stops it cleanly.
 */
import { connect } from "@/db/client";
import { runOutboxSender, transportsFromConfig } from "../outbox";

const sql = connect(process.env.DATABASE_URL, { max: 2 });
const controller = new AbortController();
process.on("SIGTERM", () => controller.abort());
await runOutboxSender(sql, {
  ...transportsFromConfig(),
  ...JSON.parse(process.env.SENDER_OPTIONS ?? "{}"),
  signal: controller.signal,
});
await sql.end();
