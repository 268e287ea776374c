import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status as statusSchema } from "@/lib/api/schemas/status";
import { api, expectShape, testDb } from "./helpers";

/**
 * GET /v1/status against the fixture's sync_state, set to each situation in turn: only the
 * columns the worker's heartbeat and head probe write (head, heartbeat, failures) change, so the
 * other tests' data and X-Indexed-Block stay as they are.
 */
type Row = {
  indexed_block: string;
  head_block: string | null;
  head_block_time: string | null;
  heartbeat_at: string | null;
  head_checked_at: string | null;
};
let saved: Row;

const setState = (s: {
  head?: number;
  headAgo?: number;
  heartbeatAgo?: number;
  headSeconds?: number;
  failures?: number;
}) =>
  testDb().execute(sql`
    update sync_state set
      head_block = ${s.head ?? Number(saved.indexed_block)},
      head_block_time = indexed_block_time + make_interval(secs => ${s.headSeconds ?? 0}),
      head_checked_at = now() - make_interval(secs => ${s.headAgo ?? 1}),
      heartbeat_at = now() - make_interval(secs => ${s.heartbeatAgo ?? 1}),
      consecutive_failures = ${s.failures ?? 0}`);

const status = async () => {
  const res = await api("/v1/status", { key: null });
  expect(res.status).toBe(200);
  return expectShape(statusSchema, res.body);
};

beforeAll(async () => {
  [saved] = (await testDb().execute<Row>(sql`
    select indexed_block::text, head_block::text, head_block_time::text, heartbeat_at::text, head_checked_at::text
      from sync_state`)) as unknown as Row[];
});
afterAll(async () => {
  await testDb().execute(sql`
    update sync_state set head_block = ${saved.head_block}, head_block_time = ${saved.head_block_time}::timestamptz,
      head_checked_at = ${saved.head_checked_at}::timestamptz, heartbeat_at = ${saved.heartbeat_at}::timestamptz,
      consecutive_failures = 0`);
});

describe("GET /v1/status", () => {
  it("is healthy at the head with a live worker", async () => {
    await setState({});
    const s = await status();
    expect(s).toMatchObject({
      healthy: true,
      reasons: [],
      lag_blocks: 0,
      lag_seconds: 0,
      head_block: Number(saved.indexed_block),
    });
    expect(s.worker).toMatchObject({ alive: true, consecutive_failures: 0 });
    expect(s.quarantined_entities).toBe(0);
    expect(s.message).toMatch(/^Indexed to block [\d,]+, 0 blocks behind/);
  });

  it("measures the lag against the probed head, and says lagging past the threshold", async () => {
    const head = Number(saved.indexed_block) + 84;
    await setState({ head, headSeconds: 168, failures: 5 });
    const s = await status();
    expect(s).toMatchObject({
      head_block: head,
      lag_blocks: 84,
      lag_seconds: 168,
      healthy: false,
      reasons: ["lagging", "indexing_failing"],
    });
    expect(s.message).toContain("84 blocks (3 min) behind the chain's head");
    expect(s.thresholds.max_lag_seconds).toBe(60);
    await setState({ head: Number(saved.indexed_block) + 3, headSeconds: 6 });
    expect(await status()).toMatchObject({ lag_blocks: 3, lag_seconds: 6, healthy: true });
  });

  it("with the worker gone, says so and leaves the lag unknown instead of 0", async () => {
    await setState({ head: Number(saved.indexed_block), heartbeatAgo: 600, headAgo: 600 });
    const s = await status();
    expect(s).toMatchObject({
      healthy: false,
      lag_blocks: null,
      lag_seconds: null,
      head_block: Number(saved.indexed_block),
    });
    expect(s.reasons).toEqual(["worker_down"]);
    expect(s.worker.alive).toBe(false);
    expect(s.message).toMatch(/^The indexer is not running \(last seen 10 min ago\)\. Data is as of block/);
  });

  it("with the worker alive but the head unreadable, says the chain cannot be reached", async () => {
    await setState({ headAgo: 300 });
    const s = await status();
    expect(s).toMatchObject({ healthy: false, reasons: ["chain_unreachable"], lag_blocks: null });
    expect(s.worker.alive).toBe(true);
  });

  it("counts quarantined entities and is unhealthy past the threshold", async () => {
    await setState({});
    const rows = Array.from({ length: 11 }, (_, i) => `0x${"e".repeat(38)}${String(i).padStart(2, "0")}`);
    try {
      for (const a of rows) {
        await testDb().execute(sql`
          insert into quarantined_entities (kind, address, reason, block, first_seen_at)
          values ('token', ${a}, 'status test', 1, now())`);
      }
      const s = await status();
      expect(s).toMatchObject({ quarantined_entities: 11, healthy: false, reasons: ["quarantine"] });
    } finally {
      await testDb().execute(sql`delete from quarantined_entities where reason = 'status test'`);
    }
  });
});
