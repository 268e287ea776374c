import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { devchainWsUrl } from "@/devchain/node";
import { NewHeads } from "@/worker/indexer/new-heads";
import { spawnWorker, stopWorker } from "./child";
import { createTestDatabase, type TestDatabase } from "./db";
import { DevchainMarket } from "./devchain-market";

/** Longer than any test here may take: a wait that ends sooner was ended by an announcement. */
const NEVER_MS = 600_000;

/** New heads announced over the dev chain's WebSocket wake the worker before its poll. */
describe("new heads", { timeout: 120_000 }, () => {
  let market: DevchainMarket;
  let db: TestDatabase;
  let sql: Sql;
  const wsUrl = () => devchainWsUrl(market.chain.rpcUrl);

  beforeAll(async () => {
    market = await DevchainMarket.start(5);
    db = await createTestDatabase();
    sql = connect(db.url, { max: 2 });
    await market.simulate(10);
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await db?.drop();
  });

  it("a wait ends when the node announces a block", async () => {
    const heads = new NewHeads(wsUrl());
    try {
      // Announcements only start once the subscription is up: mine until one arrives.
      let announced = false;
      const waited = heads.wait(NEVER_MS).then(() => (announced = true));
      while (!announced) {
        await market.simulate(1);
        await Promise.race([waited, new Promise((r) => setTimeout(r, 100))]);
      }
      expect(announced).toBe(true);
    } finally {
      heads.close();
    }
  });

  it("without a WebSocket to subscribe on, a wait is the poll's", async () => {
    // A plain HTTP server: the WebSocket upgrade is refused.
    const server: Server = createServer((_req, res) => res.end());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    const heads = new NewHeads(`ws://127.0.0.1:${port}`);
    try {
      await heads.wait(50);
    } finally {
      heads.close();
      await new Promise((r) => server.close(r));
    }
  });

  it("a worker polling every ten minutes indexes a block as soon as it is announced", async () => {
    const worker = spawnWorker(db.url, market.chain.rpcUrl, market.profile, {
      RPC_WS_URL: wsUrl(),
      POLL_INTERVAL_MS: String(NEVER_MS),
    });
    const indexedTo = async (block: number) => {
      for (;;) {
        const [row] = await sql<
          { indexed: number }[]
        >`select coalesce(max(indexed_block), 0)::int as indexed from sync_state`;
        if (row.indexed >= block) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      // Its first cycle reads the head at once; after that only announcements can wake it in time.
      await indexedTo(await market.rpc.blockNumber());
      await market.simulate(1);
      await indexedTo(await market.rpc.blockNumber());
    } finally {
      await stopWorker(worker);
    }
  });
});
