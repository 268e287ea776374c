import { insertRows } from "@/db/bulk";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { tokenMetrics, tokens } from "@/db/schema";
import { createAlert, type NewAlert } from "@/lib/alerts/service";
import type { AlertDefinition } from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import type { Plan } from "@/lib/domain/vocab";
import { createKey, ensureAccount } from "@/lib/keys/store";
import type { AlertOwner } from "@/lib/queries/alerts";
import { createTestDatabase } from "@/tests/setup/database";

/**
 * A migrated database of its own. `sql` is wrapped by drizzle (as the worker's client is), so
 * the evaluator runs with drizzle's date parsers in place.
 */
export async function alertsDatabase() {
  const database = await createTestDatabase("alerts_test");
  await runMigrations(database.url);
  const sql = connect(database.url, { max: 4 });
  const db = createDb(sql);
  return {
    url: database.url,
    sql,
    db,
    /** Empties tokens (with what refers to them), alerts and the outbox between tests (accounts and keys stay). */
    reset: () => sql`truncate tokens, alerts, alert_matches, notifications cascade`.then(() => undefined),
    close: async () => {
      await sql.end();
      await database.drop();
    },
  };
}

export type Owner = AlertOwner & { email: string | null };

export async function newOwner(db: Db, plan: Plan = "pro", email: string | null = `${Math.random().toString(36).slice(2)}@example.com`): Promise<Owner> {
  const accountId = await ensureAccount(db, email, plan);
  const key = await createKey(db, accountId);
  return { keyId: key.id, accountId, email };
}

type AlertExtra = Partial<Pick<NewAlert, "name" | "notification_channel" | "webhook_url">>;

/** An alert of any kind through the alerts service (plan gates included); returns the created alert. */
export function newAlertOf(db: Db, owner: AlertOwner, definition: AlertDefinition, extra: AlertExtra = {}) {
  return createAlert(db, owner, { name: "test alert", notification_channel: "email", ...extra, ...definition });
}

/** A token-filter alert (the spec's kind). */
export function newAlert(db: Db, owner: AlertOwner, conditions: TokenFilter, extra: AlertExtra = {}) {
  return newAlertOf(db, owner, { conditions }, extra);
}

/** The time the alert tests evaluate at: pinned, like the chain head the worker evaluates at. */
export const T0 = new Date("2031-03-01T12:00:00.000Z");

let tokenSerial = 0;
export const newAddress = () => `0x${(++tokenSerial).toString(16).padStart(40, "0")}`;

export type TokenState = {
  liquidityUsd?: number;
  marketCapUsd?: number;
  riskScore?: number;
  holderGrowth1hPct?: number;
  createdAt?: Date;
  riskFlags?: string[];
  name?: string;
  symbol?: string;
};

/** Writes a token and its token_metrics row (the worker's read model), creating or updating it. */
export async function setToken(sql: Sql, address: string, s: TokenState = {}): Promise<void> {
  const createdAt = (s.createdAt ?? new Date(T0.getTime() - 3_600_000)).toISOString();
  const token = { address, name: s.name ?? "Token", symbol: s.symbol ?? "TKN", totalSupply: 1_000_000n, launchpad: "test", createdBlock: 1, createdAt };
  await insertRows(sql, tokens, [token], { onConflict: { target: ["address"], action: "nothing" } });
  const metrics = {
    address,
    createdAt,
    liquidityUsd: s.liquidityUsd ?? 0,
    marketCapUsd: s.marketCapUsd ?? 0,
    riskScore: s.riskScore ?? 50,
    holderGrowth1hPct: s.holderGrowth1hPct ?? 0,
    riskFlags: s.riskFlags ?? [],
  };
  await insertRows(sql, tokenMetrics, [metrics], { onConflict: { target: ["address"], action: "update" } });
}

export type NotificationRow = {
  id: string;
  alertId: string;
  channel: string;
  recipient: string;
  idempotencyKey: string;
  status: string;
  attempts: number;
  lastError: string | null;
  payload: { total_matches: number; matches: { address: string; values: Record<string, unknown> }[] };
};

export function notificationsOf(sql: Sql, alertId?: string) {
  return sql<NotificationRow[]>`
    select id, alert_id as "alertId", channel, recipient, idempotency_key as "idempotencyKey", status, attempts,
           last_error as "lastError", payload
      from notifications where ${alertId ?? null}::text is null or alert_id = ${alertId ?? null} order by id`;
}

export const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
