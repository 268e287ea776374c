/**
 * Wallet reputations as people read them, for one wallet of each kind on the dev chain (real
 * launchpad, pairs and router), through the indexer, the worker's scores and the API's read model:
 * a record earned ranks above no record, no record above a record of losses, and a record of losses
 * above an insider's dump and a rug. No history is not the worst record (docs/methodology.md,
 * REPUTATION_FLOORS).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb, type Sql } from "@/db/client";
import type { Classification } from "@/lib/domain/vocab";
import { getTokenScore, getWalletScore } from "@/lib/queries/scores";
import { adjustmentText } from "@/lib/scoring/score-labels";
import { CLASSIFICATION_RULE, REPUTATION_CAPS, REPUTATION_FLOORS } from "@/lib/scoring/weights";
import { Indexer } from "@/worker/indexer/indexer";
import { createTestDatabase, type TestDatabase } from "./db";
import { E18, HOUR, type Launch, MINUTE, ScriptedMarket } from "./scripted-market";

/** Each persona's class, and its rank: a better rank scores strictly higher; one rank, no order among them. */
const PERSONAS = [
  { persona: "smart money", classification: "smart_money", rank: 1 },
  // Unproven: a few trades or none, held to the low-confidence cap and never below neutral.
  { persona: "sniper", classification: "sniper", rank: 2 },
  { persona: "new wallet", classification: "fresh", rank: 2 },
  // Created a token, so insider by the classification's definition; did nothing else.
  { persona: "honest creator", classification: "insider", rank: 2 },
  { persona: "plain loser", classification: "retail", rank: 3 },
  { persona: "insider who dumped", classification: "insider", rank: 4 },
  { persona: "creator who rugged", classification: "insider", rank: 5 },
] as const satisfies { persona: string; classification: Classification; rank: number }[];
type Persona = (typeof PERSONAS)[number]["persona"];

type WalletScore = NonNullable<Awaited<ReturnType<typeof getWalletScore>>>;

let market: ScriptedMarket;
let db: TestDatabase;
let sql: Sql;
const wallet = {} as Record<Persona, string>;
const score = {} as Record<Persona, WalletScore>;
let rugged: Launch;

/**
 * Five honest launches, each: the sniper buys in the block after it (the first three), smart money
 * four blocks later, a crowd of three lifts the price over half an hour, smart money and then the
 * sniper sell near the top; the plain loser buys nearly two hours in (the first three), the crowd sells
 * out, and it sells at a loss. Then a rug: the creator pays an insider, launches, the insider buys
 * in the next block and sells into the crowd, the creator takes the liquidity out. A day later a
 * new wallet buys a little of the last honest launch.
 */
async function script(m: ScriptedMarket) {
  for (const [i, { persona }] of PERSONAS.entries()) wallet[persona] = await m.wallet(i + 1);
  const crowd = [await m.wallet(20), await m.wallet(21), await m.wallet(22)];
  const creators = [wallet["honest creator"]];
  for (let i = 0; i < 4; i++) creators.push(await m.wallet(30 + i));
  const supply = 1_000_000_000n * E18;
  const launches: Launch[] = [];
  for (const [i, creator] of creators.entries()) {
    const launch = await m.launch(creator, { eth: 5n * E18, supply, liquidity: supply });
    launches.push(launch);
    const early = i < 3;
    if (early) await m.buy(wallet.sniper, launch.token, E18 / 2n);
    await m.mine();
    for (let b = 0; b < 3; b++) await m.mine();
    await m.buy(wallet["smart money"], launch.token, (3n * E18) / 10n);
    await m.mine();
    for (const k of crowd) {
      await m.buy(k, launch.token, E18);
      await m.mine(10 * MINUTE);
    }
    await m.sellAll(wallet["smart money"], launch.token);
    await m.mine(10 * MINUTE);
    if (early) await m.sellAll(wallet.sniper, launch.token);
    await m.mine(10 * MINUTE);
    if (early) await m.buy(wallet["plain loser"], launch.token, E18);
    await m.mine(HOUR);
    for (const k of crowd) {
      await m.sellAll(k, launch.token);
      await m.mine(10 * MINUTE);
    }
    if (early) await m.sellAll(wallet["plain loser"], launch.token);
    await m.mine(HOUR);
  }

  const rugger = wallet["creator who rugged"];
  const insider = wallet["insider who dumped"];
  await m.pay(rugger, insider, 2n * E18);
  await m.mine();
  rugged = await m.launch(rugger, { eth: 5n * E18, supply, liquidity: supply });
  await m.buy(insider, rugged.token, E18);
  await m.mine();
  for (const k of crowd.slice(0, 2)) {
    await m.buy(k, rugged.token, E18);
    await m.mine(10 * MINUTE);
  }
  await m.sellAll(insider, rugged.token);
  await m.mine(10 * MINUTE);
  await m.pullLiquidity(rugger, rugged);
  await m.mine(HOUR);

  // Long enough for everyone else to be more than a day old.
  await m.mine((CLASSIFICATION_RULE.freshMaxAgeHours + 2) * HOUR);
  await m.buy(wallet["new wallet"], launches[4].token, E18 / 5n);
  await m.mine();
  await m.mine(MINUTE);
}

describe("reputation personas through the worker and the read model", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    market = await ScriptedMarket.start();
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await script(market);
    const ix = await Indexer.create({ sql, rpc: market.rpc, profile: market.profile, fullRefreshIntervalMs: 0 });
    for (let i = 0; (await ix.cycle()).step !== "idle"; i++) if (i > 200) throw new Error("did not catch up");
    await ix.refreshAll();
    const read = createDb(sql);
    for (const { persona } of PERSONAS) score[persona] = (await getWalletScore(read, wallet[persona]))!;
  }, 300_000);
  afterAll(async () => {
    await sql?.end();
    await market?.stop();
    await db?.drop();
  });

  it.each(PERSONAS)("classifies the $persona as $classification", ({ persona, classification }) => {
    expect({ persona, classification: score[persona].classification }).toEqual({ persona, classification });
  });

  it("ranks the personas in the table's order: a better rank always scores higher", () => {
    const rep = (p: Persona) => `${p} ${score[p].reputation_score}`;
    const below = (a: (typeof PERSONAS)[number]) => PERSONAS.filter((b) => a.rank < b.rank);
    const pairs = PERSONAS.flatMap((a) => below(a).map((b) => [a.persona, b.persona] as const));
    const misordered = pairs.filter(([a, b]) => !(score[a].reputation_score > score[b].reputation_score));
    expect(misordered.map(([a, b]) => `${rep(a)} <= ${rep(b)}`)).toEqual([]);
  });

  it("holds the unproven between neutral and the low-confidence cap, and a record of losses below neutral", () => {
    for (const { persona } of PERSONAS.filter((p) => p.rank === 2)) {
      expect({ persona, confidence: score[persona].confidence }).toEqual({ persona, confidence: "low" });
      expect(score[persona].reputation_score).toBeGreaterThanOrEqual(REPUTATION_FLOORS.no_record);
      expect(score[persona].reputation_score).toBeLessThanOrEqual(REPUTATION_CAPS.low_confidence);
    }
    expect(score["plain loser"].reputation_score).toBeLessThan(REPUTATION_FLOORS.no_record);
    expect(score["smart money"].confidence).not.toBe("low");
  });

  it("judges the honest creator only by its launch liquidity, and says nothing of misbehaviour", () => {
    // Its one position is the liquidity it put in at launch (docs/methodology.md, "Liquidity in
    // positions and PnL"): open, never traded, so only its drawdown has data.
    const creator = score["honest creator"];
    expect(creator.missing_dimensions.map((m) => m.dimension).sort()).toEqual([
      "consistency_score",
      "entry_timing_score",
      "win_rate",
    ]);
    expect(creator.adjustments).toContainEqual({ reason: "low_confidence", max_score: REPUTATION_CAPS.low_confidence });
    expect(creator.reputation_score).toBeGreaterThanOrEqual(REPUTATION_FLOORS.no_record);
    const words = creator.adjustments.map(adjustmentText).join(" ");
    expect(words).not.toMatch(/insider|pulled|sold|dump/i);
  });

  it("holds the creator who rugged and the insider who dumped to their caps", async () => {
    const token = await getTokenScore(createDb(sql), rugged.token);
    const pull = token?.flag_evidence.find((e) => e.flag === "liquidity_pulled");
    expect(pull?.wallets).toContain(wallet["creator who rugged"]);
    const rugger = score["creator who rugged"];
    const pulledCap = REPUTATION_CAPS.pulled_own_launch_liquidity;
    expect(rugger.adjustments).toContainEqual({ reason: "pulled_own_launch_liquidity", max_score: pulledCap });
    expect(rugger.reputation_score).toBeLessThanOrEqual(pulledCap);
    const insider = score["insider who dumped"];
    expect(insider.adjustments).toContainEqual({ reason: "insider_dump", max_score: REPUTATION_CAPS.insider_dump });
    expect(insider.reputation_score).toBeLessThanOrEqual(REPUTATION_CAPS.insider_dump);
  });
});
