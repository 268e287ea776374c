import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { resendTransport } from "@/lib/alerts/email";
import { webhookTransport } from "@/lib/alerts/webhook";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/scripts/embedded/database";
import { freePort } from "@/tests/setup/server";
import { AlertEvaluator } from "./evaluate";
import { deliverDue } from "./outbox";
import { startFakeResend } from "./test/fake-servers";
import { minutes, newAddress, newAlert, newOwner, notificationsOf, setToken } from "./test/fixtures";

/** The default runtime is embedded PGlite (one transaction at a time): alerts must work there too. */
let dir: string;
let embedded: EmbeddedDatabase;
let sql: Sql;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oci-alerts-pglite-"));
  embedded = await startEmbeddedDatabase(dir, await freePort());
  await runMigrations(embedded.url);
  sql = connect(embedded.url, { max: 2 });
  db = createDb(sql);
}, 240_000);

afterAll(async () => {
  await sql?.end();
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("alerts on embedded PGlite", { timeout: 60_000 }, () => {
  it("evaluates, fires after the cooldown and delivers through the outbox", async () => {
    const resend = await startFakeResend({ rate: 0.3, seed: 5 });
    try {
      const owner = await newOwner(db);
      const alert = await newAlert(db, owner, { min_liquidity_usd: 1_000 });
      const evaluator = new AlertEvaluator();
      const t0 = new Date("2031-05-01T00:00:00Z");
      await setToken(sql, newAddress(), { liquidityUsd: 5_000 });
      await evaluator.evaluate(sql, t0);
      await setToken(sql, newAddress(), { liquidityUsd: 7_000 });
      await evaluator.evaluate(sql, minutes(t0, 1));
      await evaluator.evaluate(sql, minutes(t0, 15));
      const email = resendTransport({ apiKey: "re_test", baseUrl: resend.url, from: "a@example.com", timeoutMs: 2_000 });
      for (let i = 0; i < 200 && (await notificationsOf(sql)).some((n) => n.status === "pending"); i++) {
        await deliverDue(sql, { email, webhook: webhookTransport({ timeoutMs: 2_000 }), backoffMs: 1, maxBackoffMs: 5, maxAttempts: 50 });
      }
      const sent = await notificationsOf(sql, alert.id);
      expect(sent.map((n) => [n.status, n.payload.total_matches])).toEqual([
        ["sent", 1],
        ["sent", 1],
      ]);
      expect(resend.sent.map((s) => s.key).sort()).toEqual(sent.map((n) => n.idempotencyKey).sort());
    } finally {
      await resend.close();
    }
  });
});
