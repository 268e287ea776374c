import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { CLUSTERS } from "@/lib/scoring";
import { createTestDatabase, type TestDatabase } from "../../test/db";
import { gatherWalletInputs, MAX_TRADES } from "./wallet-inputs";

/**
 * A wallet is linked to a token creator when it shares a managed-size funding cluster with one
 * (walletRows counts each cluster of a chunk once). Clusters of several sizes and members, side by
 * side in one chunk, so a rule that mixed up two clusters' answers would fail.
 */
describe("gatherWalletInputs: a creator's cluster", () => {
  let db: TestDatabase;
  let sql: Sql;
  const head = { number: 100, timestamp: 1_800_000_000 };

  /** `size` wallets of cluster `id`, the first of them a token's creator when `creator`. */
  const cluster = (id: string, size: number, creator: boolean) => ({
    id,
    wallets: Array.from({ length: size }, (_, i) => `${id}-w${i}`),
    creator,
  });
  const cases = [
    { name: "a small cluster with a creator", c: cluster("small", 3, true), linked: true },
    {
      name: "the largest managed cluster with a creator",
      c: cluster("edge", CLUSTERS.maxManagedSize, true),
      linked: true,
    },
    {
      name: "a hub (one past managed) with a creator",
      c: cluster("hub", CLUSTERS.maxManagedSize + 1, true),
      linked: false,
    },
    { name: "a small cluster without a creator", c: cluster("plain", 3, false), linked: false },
  ];

  beforeAll(async () => {
    db = await createTestDatabase("idx_wallet_inputs");
    sql = connect(db.url, { max: 1 });
    const t = new Date(0);
    const wallets = cases.flatMap(({ c }) => c.wallets.map((address) => ({ address, cluster_id: c.id })));
    await sql`insert into wallets ${sql(wallets.map((w) => ({ ...w, first_seen: t, last_seen: t })))}`;
    await sql`insert into wallets ${sql([{ address: "alone", first_seen: t, last_seen: t }])}`;
    const tokens = cases.filter(({ c }) => c.creator).map(({ c }, i) => ({ c, i }));
    await sql`insert into tokens ${sql(
      tokens.map(({ c, i }) => ({
        address: `token-${c.id}`,
        name: c.id,
        symbol: c.id,
        total_supply: "1",
        launchpad: "test",
        creator: c.wallets[0],
        created_block: i + 1,
        created_at: t,
      })),
    )}`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("links every member of a managed cluster with a creator, and no other", async () => {
    // A member other than the creator (who is linked by being one), and one wallet in no cluster.
    const asked = [...cases.map(({ c }) => c.wallets[1]), "alone"];
    const inputs = await sql.begin((tx) => gatherWalletInputs(tx, asked, head));
    const linked = Object.fromEntries(inputs.map((i) => [i.address, i.linkedToCreator]));
    expect(linked).toEqual({
      ...Object.fromEntries(cases.map(({ c, linked }) => [c.wallets[1], linked])),
      alone: false,
    });
  });
});

/**
 * A wallet's trades are its last MAX_TRADES swaps of the lookback by id, whatever else it did and
 * however often it is asked for: the bot and wash tests read them (one index walk per wallet).
 */
describe("gatherWalletInputs: a wallet's trades", () => {
  let db: TestDatabase;
  let sql: Sql;
  const head = { number: 10_000, timestamp: 1_800_000_000 };
  const inLookback = new Date((head.timestamp - 86_400) * 1000);
  const tooOld = new Date((head.timestamp - 31 * 86_400) * 1000);
  let id = 0;
  /** An event of `wallet`, its block its id (so the trades' blocks name the events read). */
  const event = (wallet: string, type: string, at: Date) => {
    id += 1;
    return {
      id,
      type,
      wallet_address: wallet,
      token_address: "token",
      token_amount: "1",
      amount_usd: 1,
      direction: type === "swap" ? "buy" : null,
      block_number: id,
      log_index: 0,
      tx_hash: `0x${id}`,
      timestamp: at,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase("idx_wallet_trades");
    sql = connect(db.url, { max: 1 });
    const t = new Date(0);
    await sql`insert into wallets ${sql(["busy", "quiet"].map((address) => ({ address, first_seen: t, last_seen: t })))}`;
    const rows = [
      ...Array.from({ length: 3 }, () => event("busy", "swap", tooOld)),
      ...Array.from({ length: MAX_TRADES + 200 }, (_, i) =>
        event("busy", i % 100 === 0 ? "transfer" : "swap", inLookback),
      ),
      ...Array.from({ length: 2 }, () => event("quiet", "swap", inLookback)),
      event("busy", "transfer", inLookback),
    ];
    for (let i = 0; i < rows.length; i += 1_000) await sql`insert into events ${sql(rows.slice(i, i + 1_000))}`;
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("reads each wallet's last MAX_TRADES swaps of the lookback once, in block order", async () => {
    const inputs = await sql.begin((tx) => gatherWalletInputs(tx, ["busy", "quiet", "busy"], head));
    const blocks = Object.fromEntries(inputs.map((i) => [i.address, i.trades.map((t) => t.block)]));
    const busySwaps = Array.from({ length: MAX_TRADES + 200 }, (_, i) => i)
      .filter((i) => i % 100 !== 0)
      .map((i) => 3 + i + 1);
    expect(inputs.map((i) => i.address).sort()).toEqual(["busy", "quiet"]);
    expect(blocks.busy).toEqual(busySwaps.slice(-MAX_TRADES));
    expect(blocks.quiet).toEqual([id - 2, id - 1]);
  });
});
