import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import type { QuirkToken } from "@/devchain/deploy";
import { type SimulatedChain, simulateOnDevChain } from "@/devchain/test/simulated-chain";
import type { SecurityReport } from "@/lib/domain/security";
import { Indexer } from "@/worker/indexer/indexer";
import { Rpc, toHex } from "@/worker/indexer/rpc";
import type { ChainProfile } from "@/worker/profiles";
import { devchainProfile } from "@/worker/profiles/devchain";
import { SecurityScanner } from "@/worker/security/scanner";
import { createTestDatabase, type TestDatabase } from "./db";

/**
 * The security checks through the real pipeline: a simulated day on the dev chain (V2 and
 * BaseBlast V3 launches with their fates, the quirk tokens traded), indexed by the real indexer
 * into PostgreSQL, then checked by the worker's scanner against the node. Each quirk token's
 * verdicts are its code's; a node that never answers makes every check unknown, never safe.
 */

let sim: SimulatedChain;
let db: TestDatabase;
let sql: Sql;
let profile: ChainProfile;
let indexed: { block: number; time: number };

const quirk = (kind: QuirkToken["quirk"]) => sim.deployment.quirkTokens.find((q) => q.quirk === kind)!.address;

async function reports(): Promise<Map<string, SecurityReport & { block: number }>> {
  const rows = await sql<{ token: string; block: string; report: SecurityReport }[]>`
    select token_address as token, block::text, report from token_security`;
  return new Map(rows.map((r) => [r.token, { ...r.report, block: Number(r.block) }]));
}

async function index(ix: Indexer) {
  for (let i = 0; i < 500; i++) {
    const r = await ix.cycle();
    if (r.step === "idle") return { block: r.indexedBlock, time: r.indexedTime };
  }
  throw new Error("did not catch up");
}

const scan = (scanner: SecurityScanner) =>
  scanner.pass({ sql, profile, indexedBlock: indexed.block, indexedTime: indexed.time });

async function scanAll(scanner: SecurityScanner) {
  while ((await scan(scanner)) > 0);
}

describe("security checks on the dev chain", () => {
  let ix: Indexer;
  beforeAll(async () => {
    sim = await simulateOnDevChain({ seed: 7, days: 1, tokens: 10, wallets: 150, v3Share: 0.5 });
    profile = devchainProfile(sim.deployment);
    db = await createTestDatabase("security_test");
    sql = connect(db.url, { max: 4 });
    ix = await Indexer.create({
      sql,
      rpc: new Rpc({ url: sim.deployment.rpcUrl }),
      profile,
      fullRefreshIntervalMs: 0,
    });
    indexed = await index(ix);
    // Each pass takes a batch: the whole set is checked by passes until none is due.
    await scanAll(new SecurityScanner({ rpcUrl: sim.deployment.rpcUrl, batch: 8 }));
  }, 900_000);
  afterAll(async () => {
    await sql?.end();
    await sim?.close();
    await db?.drop();
  });

  it("checks every indexed token at the indexed block", async () => {
    const tokens = await sql<{ address: string }[]>`select address from tokens`;
    const checked = await reports();
    expect(checked.size).toBe(tokens.length);
    for (const r of checked.values()) expect(r.block).toBe(indexed.block);
  });

  it("calls the honeypot a honeypot: buys go through, sells revert", async () => {
    const r = (await reports()).get(quirk("honeypot"))!;
    expect(r.trade).toMatchObject({ status: "ok", honeypot: "yes", honeypot_reason: "sell_reverts", buy_tax_pct: 0 });
    expect(r.trade.sell_tax_pct).toBeUndefined();
  });

  it("measures the fee-on-transfer tokens' taxes: 1% burnt, 3% to a wallet, 2% / 5% of the tax token", async () => {
    const checked = await reports();
    const taxes = (kind: QuirkToken["quirk"]) => {
      const t = checked.get(quirk(kind))!.trade;
      expect(t).toMatchObject({ status: "ok", honeypot: "no" });
      return [t.buy_tax_pct!, t.sell_tax_pct!];
    };
    const near = ([buy, sell]: number[], [b, s]: number[]) => {
      expect(buy).toBeCloseTo(b, 1);
      expect(sell).toBeCloseTo(s, 1);
    };
    near(taxes("fee-on-transfer"), [1, 1]);
    near(taxes("fee-to-wallet"), [3, 3]);
    near(taxes("raisable-tax"), [2, 5]);
    near(taxes("owner-mintable"), [0, 0]);
    near(taxes("bytes32-metadata"), [0, 0]);
  });

  it("trades the launches untaxed, on V2 and V3 alike, wherever a buy still goes through", async () => {
    const checked = await reports();
    const traded = sim.truth.tokens.filter((t) => checked.get(t.address)!.trade.status === "ok");
    // A launch whose liquidity is gone may refuse even a small buy: that one is unknown, never safe.
    expect(traded.length).toBeGreaterThanOrEqual(sim.truth.tokens.length / 2);
    expect(new Set(traded.map((t) => t.protocol))).toEqual(new Set(["uniswap-v2", "uniswap-v3"]));
    for (const t of traded)
      expect(checked.get(t.address)!.trade).toMatchObject({ honeypot: "no", buy_tax_pct: 0, sell_tax_pct: 0 });
    for (const t of sim.truth.tokens.filter((x) => checked.get(x.address)!.trade.status === "unknown"))
      expect(checked.get(t.address)!.trade).toMatchObject({ honeypot: "unknown", reason: expect.any(String) });
  });

  it("reads the owner and what the code can do", async () => {
    const checked = await reports();
    const mintable = checked.get(quirk("owner-mintable"))!;
    expect(mintable.owner).toMatchObject({ status: "ok", state: "active", address: sim.deployment.deployer });
    expect(mintable.code).toMatchObject({ status: "ok", can_mint: true, can_change_fees: false, proxy: false });
    const tax = checked.get(quirk("raisable-tax"))!;
    expect(tax.code).toMatchObject({ status: "ok", can_mint: false, can_change_fees: true });
    expect(tax.owner).toMatchObject({ state: "active" });
    // Launch tokens have no owner and a fixed supply.
    for (const t of sim.truth.tokens) {
      const r = checked.get(t.address)!;
      expect(r.owner).toEqual({ status: "ok", state: "none" });
      expect(r.code).toMatchObject({ can_mint: false, can_pause: false, can_blacklist: false, can_change_fees: false });
    }
  });

  it("splits each launch's LP into burnt, locked (BaseBlast Locker) and free", async () => {
    const checked = await reports();
    const v3 = sim.truth.tokens.filter((t) => t.protocol === "uniswap-v3");
    expect(v3.length).toBeGreaterThan(0);
    for (const t of v3) {
      const lp = checked.get(t.address)!.liquidity;
      expect(lp.status).toBe("ok");
      const pulled = t.labels.includes("rug_pull") || t.labels.includes("slow_rug");
      if (pulled) {
        expect(lp.locked_pct).toBe(0);
        continue;
      }
      expect(lp.locked_pct).toBeCloseTo(100, 1);
      expect(lp.locks).toEqual([
        {
          locker: sim.deployment.lockers[0].address,
          name: "BaseBlast Locker",
          share_pct: lp.locked_pct,
          release: t.withdrawable ? "by_owner" : "never",
        },
      ]);
    }
    for (const t of sim.truth.tokens.filter((x) => x.protocol === "uniswap-v2")) {
      const lp = checked.get(t.address)!.liquidity;
      expect(lp).toMatchObject({ status: "ok", locked_pct: 0 });
      expect(lp.burnt_pct! + lp.free_pct!).toBeCloseTo(100, 1);
      if (t.labels.includes("lp_burn")) expect(lp.burnt_pct).toBeGreaterThan(50);
    }
  });

  it("sees the tax raised: a 95% sell tax makes the tax token a honeypot", async () => {
    const abi = parseAbi(["function setTaxes(uint256 buyBps, uint256 sellBps)"]);
    const rpc = new Rpc({ url: sim.deployment.rpcUrl });
    await rpc.call("eth_sendTransaction", [
      {
        from: sim.deployment.deployer,
        to: quirk("raisable-tax"),
        data: encodeFunctionData({ abi, functionName: "setTaxes", args: [200n, 9_500n] }),
        gas: toHex(200_000),
        gasPrice: "0x0",
      },
    ]);
    await rpc.call("evm_mine", []);
    indexed = await index(ix);
    // Nothing in the pool moved: the change is seen when the check is stale.
    await scanAll(new SecurityScanner({ rpcUrl: sim.deployment.rpcUrl, staleBlocks: 0, batch: 64 }));
    const t = (await reports()).get(quirk("raisable-tax"))!.trade;
    expect(t).toMatchObject({ status: "ok", honeypot: "yes", honeypot_reason: "sell_returns_almost_nothing" });
    expect(t.sell_tax_pct).toBeCloseTo(95, 0);
  });

  it("says unknown, never safe, when the node does not answer, and the pass still ends", async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await sql`delete from token_security`;
      const written = await scan(new SecurityScanner({ rpcUrl: url, timeoutMs: 300, batch: 4 }));
      expect(written).toBe(4);
      for (const r of (await reports()).values()) {
        expect(r.trade).toMatchObject({ status: "unknown", honeypot: "unknown" });
        for (const check of [r.owner, r.code, r.liquidity]) expect(check.status).toBe("unknown");
        expect(r.trade.reason).toBeTruthy();
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
