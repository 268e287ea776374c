import { insertRows } from "@/db/bulk";
import { connect, createDb, type Db, type Sql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { blocks, events, syncState, tokenMetrics, tokens, wallets } from "@/db/schema";
import { createAlert, type NewAlert } from "@/lib/alerts/service";
import type { AlertDefinition } from "@/lib/domain/alert-conditions";
import type { TokenFilter } from "@/lib/domain/token-filter";
import type { Classification, Plan } from "@/lib/domain/vocab";
import { createKey, ensureAccount } from "@/lib/keys/store";
import type { AlertOwner } from "@/lib/queries/alerts";
import { createTestDatabase } from "@/tests/setup/database";
import { tokenKey, unpackSet } from "../match-sets";

/** What a test leaves behind; alert_matches and alert_match_sets go with alerts (cascade). */
const RESET_TABLES = "tokens, alerts, notifications, alert_event_blocks, blocks, events, wallets, sync_state";

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
    /**
     * Empties tokens (with what refers to them), alerts, the outbox and the chain between tests (accounts and keys
     * stay).
     */
    reset: () => sql.unsafe(`truncate ${RESET_TABLES} cascade`).then(() => undefined),
    close: async () => {
      await sql.end();
      await database.drop();
    },
  };
}

export type Owner = AlertOwner & { email: string | null };

export async function newOwner(
  db: Db,
  plan: Plan = "pro",
  email: string | null = `${Math.random().toString(36).slice(2)}@example.com`,
): Promise<Owner> {
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
  priceUsd?: number;
  priceChange1hPct?: number | null;
  /** Who launched it, and in which block. */
  creator?: string;
  createdBlock?: number;
};

/** Writes a token and its token_metrics row (the worker's read model), creating or updating it. */
export async function setToken(sql: Sql, address: string, s: TokenState = {}): Promise<void> {
  const createdAt = (s.createdAt ?? new Date(T0.getTime() - 3_600_000)).toISOString();
  const token = {
    ...{ address, name: s.name ?? "Token", symbol: s.symbol ?? "TKN", totalSupply: 1_000_000n, launchpad: "test" },
    ...{ createdBlock: s.createdBlock ?? 1, createdAt, creator: s.creator ?? null, createdTx: `0x${"c".repeat(64)}` },
  };
  await insertRows(sql, tokens, [token], { onConflict: { target: ["address"], action: "nothing" } });
  const metrics = {
    address,
    createdAt,
    liquidityUsd: s.liquidityUsd ?? 0,
    marketCapUsd: s.marketCapUsd ?? 0,
    riskScore: s.riskScore ?? 50,
    holderGrowth1hPct: s.holderGrowth1hPct ?? 0,
    riskFlags: s.riskFlags ?? [],
    priceUsd: s.priceUsd ?? 0,
    priceChange1hPct: s.priceChange1hPct ?? null,
  };
  await insertRows(sql, tokenMetrics, [metrics], { onConflict: { target: ["address"], action: "update" } });
}

export type NotificationRow = {
  id: string;
  alertId: string;
  channel: string;
  recipient: string;
  idempotencyKey: string;
  batchKey: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  payload: { total_matches: number; matches: { address: string; values: Record<string, unknown> }[] };
};

export function notificationsOf(sql: Sql, alertId?: string) {
  return sql<NotificationRow[]>`
    select id, alert_id as "alertId", channel, recipient, idempotency_key as "idempotencyKey", batch_key as "batchKey",
           status, attempts,
           last_error as "lastError", payload
      from notifications where ${alertId ?? null}::text is null or alert_id = ${alertId ?? null} order by id`;
}

/**
 * The tokens an alert matches, by address, and whether each was notified (in its stored set and
 * not waiting for a firing). Stored keys map back through the tokens table.
 */
export async function matchesOf(sql: Sql, alertId: string): Promise<{ address: string; notified: boolean }[]> {
  const [set] = await sql<{ tokens: Buffer }[]>`select tokens from alert_match_sets where alert_id = ${alertId}`;
  const keys = set ? unpackSet(set.tokens) : new Set<string>();
  const rows = await sql<{ address: string }[]>`
    select token_address as address from alert_matches where alert_id = ${alertId}`;
  const waiting = new Set(rows.map((r) => r.address));
  const tokens = await sql<{ address: string }[]>`select address from tokens order by address`;
  const held = tokens.filter((t) => keys.has(tokenKey(t.address)));
  return held.map(({ address }) => ({ address, notified: !waiting.has(address) }));
}

export const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);

export const seconds = (base: Date, s: number) => new Date(base.getTime() + s * 1_000);

/** An on-chain event to index: a swap by `wallet` on its `direction`, or a transfer from `wallet` to `to`. */
export type TestEvent = { wallet: string; token: string; amountUsd?: number; priceUsd?: number } & (
  | { type: "swap"; direction: "buy" | "sell" }
  | { type: "transfer"; to: string }
);

let blockSerial = 1_000;

/**
 * Indexes a block as the indexer does: its header in `blocks` and its events numbered
 * block * 100000 + position (`firstId` for a block indexed again after a reorg, which numbers
 * its events after its tombstones). Returns the block's number and its events' ids.
 */
type BlockAt = { number?: number; hash?: string; firstId?: number };

export async function addBlock(sql: Sql, time: Date, list: TestEvent[] = [], at: BlockAt = {}) {
  const number = at.number ?? ++blockSerial;
  blockSerial = Math.max(blockSerial, number);
  const hash = at.hash ?? `0x${number.toString(16).padStart(64, "0")}`;
  await insertRows(sql, blocks, [{ number, hash, parentHash: "0x", timestamp: time.toISOString() }]);
  const first = at.firstId ?? number * 100_000;
  const rows = list.map((e, i) => ({
    id: first + i,
    type: e.type,
    walletAddress: e.wallet,
    toAddress: e.type === "transfer" ? e.to : null,
    tokenAddress: e.token,
    amountUsd: e.amountUsd ?? 100,
    direction: e.type === "swap" ? e.direction : null,
    priceUsd: e.priceUsd ?? null,
    blockNumber: number,
    logIndex: i,
    txHash: `0x${(first + i).toString(16).padStart(64, "0")}`,
    timestamp: time.toISOString(),
  }));
  await insertRows(sql, events, rows);
  return { number, ids: rows.map((r) => String(r.id)) };
}

/** A wallet with a classification (the wallet scores' current one). */
export async function setWallet(sql: Sql, address: string, classification: Classification) {
  const row = { address, firstSeen: T0.toISOString(), lastSeen: T0.toISOString(), classification };
  await insertRows(sql, wallets, [row], { onConflict: { target: ["address"], action: "update" } });
}

/** The indexer's checkpoint: the indexed head and its time (what reads take as "now" on the chain). */
export async function setHead(sql: Sql, block: number, time: Date) {
  const row = { chainId: 1, indexedBlock: block, indexedBlockTime: time.toISOString() };
  await insertRows(sql, syncState, [row], { onConflict: { target: ["chainId"], action: "update" } });
}
