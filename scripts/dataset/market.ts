import { type Chain, HOUR_MS, ID_BLOCK_FACTOR } from "./chain";
import { DEAD_ADDRESS, type Ids, ZERO_ADDRESS } from "./ids";
import { fromWei, Pair, toWei } from "./pair";
import type { TokenPlan } from "./plans";
import type { Persona, Population } from "./population";
import { Position } from "./position";
import { type Rng, rngFor, STREAM } from "./rng";
import { type Action, LAUNCH_WINDOW_BLOCKS, scheduleActions } from "./schedule";
import { type SummaryInput, tokenSummary } from "./summary";
import { iso, METHOD_VERSION, num, type Row, type RowSink, TABLES, textArray } from "./tables";
import { assessToken, type Holder, type TokenFacts } from "./token-risk";
import type { WalletStats } from "./wallet-stats";

export type MarketContext = {
  chain: Chain;
  pop: Population;
  ids: Ids;
  stats: WalletStats;
  sink: RowSink;
  seed: number;
  weth: string;
  factory: string;
  dex: string;
};

/** token_scores row still waiting for the top holders' reputation (known once all tokens ran). */
export type ScoreDraft = { row: Row; top10: number[]; summary: string };
export const SCORE_AVG_REPUTATION = TABLES.token_scores.indexOf("avg_reputation_top10");
export const SCORE_SUMMARY = TABLES.token_scores.indexOf("ai_summary");
export const SCORE_SUMMARY_HASH = TABLES.token_scores.indexOf("summary_input_hash");

// Holders that are not wallets; wallets are indexes >= 0 into the population.
const ZERO = -1;
const DEAD = -2;
const POOL = -3;
const CONTRACT = -4;

const DAY_MS = 24 * HOUR_MS;
/** A buy and a sell of about the same value this close together is a round trip. */
const ROUND_TRIP_BLOCKS = 25;
const ROUND_TRIP_USD_DIFF = 0.02;

const BUY_USD: Record<Persona, [median: number, sigma: number]> = {
  retail: [150, 1.0],
  fresh: [80, 0.8],
  bot: [400, 0.6],
  whale: [15_000, 0.7],
  smart_money: [2_500, 0.6],
  sniper: [600, 0.7],
  insider: [1_000, 0.6],
  wash_trader: [1_500, 0.4],
};

type Trader = {
  w: number;
  pos: Position;
  lp: bigint;
  balanceBlock: number;
  /** Index in the holder list while the balance is positive, else -1. */
  slot: number;
  entryTx: string | null;
  washPending: bigint;
  lastBuy: { block: number; usd: number; tx: string } | null;
  roundTrips: number;
  roundTripUsd: number;
  roundTripTxs: string[];
  bought24hUsd: number;
  sold24hUsd: number;
  sold24hQty: bigint;
  sells24hTxs: string[];
};

type Tx = { block: number; ms: number; base: number; hash: string };

class TokenMarket {
  private readonly rng: Rng;
  private readonly pair = new Pair();
  private readonly traders = new Map<number, Trader>();
  private readonly holders: number[] = [];
  private readonly special = new Map<number, { amount: bigint; block: number }>();
  private readonly lpProviders: number[] = [];
  private readonly traderPool: number[];
  private readonly t0: number;
  private readonly life: number;
  private readonly cutoff1h: number;
  private readonly cutoff24h: number;
  private readonly creator: number;
  private rugged = false;
  private lpBurned = 0n;
  private peakWeth = 0n;
  private largestRemoval: TokenFacts["largestRemoval"] = null;
  private volumeUsd = 0;
  private volume24hUsd = 0;
  private readonly clusterVolume = new Map<number, number>();
  private smBought24hUsd = 0;
  private smSold24hUsd = 0;
  private lastSyncBlock = 0;
  private lastBlock = 0;
  private launchTx = "";
  private nextHourEnd: number;
  private count1hAgo: number | null;

  constructor(
    private readonly ctx: MarketContext,
    private readonly plan: TokenPlan,
  ) {
    this.rng = rngFor(ctx.seed, STREAM.token, plan.index);
    this.t0 = ctx.chain.timeOf(plan.createdBlock);
    this.life = ctx.chain.nowMs - this.t0;
    this.cutoff1h = ctx.chain.nowMs - HOUR_MS;
    this.cutoff24h = ctx.chain.nowMs - DAY_MS;
    this.creator = plan.team.members[0];
    this.traderPool = Array.from({ length: Math.min(4000, Math.ceil(plan.events * 0.4) + 2) }, () => ctx.pop.sampleTrader(this.rng));
    this.nextHourEnd = Math.floor(this.t0 / HOUR_MS) * HOUR_MS + HOUR_MS;
    this.count1hAgo = this.t0 > this.cutoff1h ? 0 : null;
    for (const s of [DEAD, POOL, CONTRACT]) this.special.set(s, { amount: 0n, block: 0 });
  }

  run(): ScoreDraft {
    this.launch();
    for (const a of scheduleActions(this.plan, this.ctx.chain, this.ctx.pop, this.rng)) {
      const block = this.ctx.chain.blockAt(a.ms);
      this.advanceClock(this.ctx.chain.timeOf(block));
      if (!this.perform(a, block)) this.trade(block);
    }
    this.advanceClock(Infinity);
    return this.finish();
  }

  // ---- bookkeeping shared by every action ------------------------------------------------

  private addressOf(p: number): string {
    if (p >= 0) return this.ctx.pop.addresses[p];
    return p === ZERO ? ZERO_ADDRESS : p === DEAD ? DEAD_ADDRESS : p === POOL ? this.plan.pool : this.plan.address;
  }

  private trader(w: number): Trader {
    let t = this.traders.get(w);
    if (!t) {
      t = {
        w,
        pos: new Position(),
        lp: 0n,
        balanceBlock: 0,
        slot: -1,
        entryTx: null,
        washPending: 0n,
        lastBuy: null,
        roundTrips: 0,
        roundTripUsd: 0,
        roundTripTxs: [],
        bought24hUsd: 0,
        sold24hUsd: 0,
        sold24hQty: 0n,
        sells24hTxs: [],
      };
      this.traders.set(w, t);
    }
    return t;
  }

  private tx(block: number, logs: number): Tx {
    const base = this.ctx.chain.claimLogs(block, logs);
    this.lastBlock = block;
    return { block, ms: this.ctx.chain.timeOf(block), base, hash: this.ctx.ids.txHash(block, base) };
  }

  private ethUsd(ms: number): number {
    return this.ctx.chain.ethUsd(ms);
  }

  private priceUsd(ms: number): number {
    return this.pair.priceWeth() * this.ethUsd(ms);
  }

  /** One ERC-20 Transfer log of the token; wallet positions are moved by the caller. */
  private transferLog(tx: Tx, offset: number, from: number, to: number, amount: bigint, txFrom: number): void {
    this.ctx.sink.add("token_transfers", [
      String(tx.block),
      String(tx.base + offset),
      this.plan.address,
      this.addressOf(from),
      this.addressOf(to),
      amount.toString(),
      tx.hash,
      this.addressOf(txFrom),
    ]);
    for (const p of [from, to]) {
      if (p >= 0) {
        const t = this.trader(p);
        t.balanceBlock = tx.block;
        t.entryTx ??= p === to ? tx.hash : null;
      } else if (p !== ZERO) {
        const s = this.special.get(p)!;
        s.amount += p === to ? amount : -amount;
        s.block = tx.block;
      }
    }
  }

  /** Keeps the list of wallets holding a positive balance (the holder count, random sellers). */
  private settle(t: Trader): void {
    if (t.pos.quantity > 0n && t.slot < 0) {
      t.slot = this.holders.length;
      this.holders.push(t.w);
    } else if (t.pos.quantity === 0n && t.slot >= 0) {
      const last = this.holders.pop()!;
      if (last !== t.w) {
        this.holders[t.slot] = last;
        this.traders.get(last)!.slot = t.slot;
      }
      t.slot = -1;
    }
  }

  private syncLog(tx: Tx, offset: number): void {
    const [r0, r1] = this.plan.address < this.ctx.weth ? [this.pair.reserveToken, this.pair.reserveWeth] : [this.pair.reserveWeth, this.pair.reserveToken];
    this.ctx.sink.add("pool_reserves", [this.plan.pool, String(tx.block), String(tx.base + offset), r0.toString(), r1.toString()]);
    this.lastSyncBlock = tx.block;
    if (this.pair.reserveWeth > this.peakWeth) this.peakWeth = this.pair.reserveWeth;
  }

  private event(tx: Tx, offset: number, type: string, actor: number, to: number | null, amount: bigint, usd: number, direction: string | null): void {
    const log = tx.base + offset;
    this.ctx.sink.add("events", [
      String(tx.block * ID_BLOCK_FACTOR + log),
      type,
      this.addressOf(actor),
      to === null ? null : this.addressOf(to),
      this.plan.address,
      type === "transfer" ? null : this.plan.pool,
      amount.toString(),
      num(usd, 4),
      direction,
      String(tx.block),
      String(log),
      tx.hash,
      iso(tx.ms),
    ]);
    this.ctx.stats.seen(actor, tx.ms, this.plan.sector, usd);
    if (to !== null && to >= 0) this.ctx.stats.seen(to, tx.ms, this.plan.sector, usd);
  }

  /** Hourly holder counts and the count one hour ago, taken as the clock passes them. */
  private advanceClock(ms: number): void {
    if (this.count1hAgo === null && ms > this.cutoff1h) this.count1hAgo = this.holders.length;
    const end = Math.min(ms, this.ctx.chain.nowMs + HOUR_MS);
    while (this.nextHourEnd <= end) {
      this.ctx.sink.add("holder_count_history", [this.plan.address, iso(this.nextHourEnd - HOUR_MS), String(this.holders.length)]);
      this.nextHourEnd += HOUR_MS;
    }
  }

  // ---- actions ------------------------------------------------------------------------------

  /** Launchpad creation: mint, pair creation and the creator's first liquidity, in one transaction. */
  private launch(): void {
    const p = this.plan;
    const contractTokens = (p.supply * BigInt(Math.round(p.contractShare * 1e6))) / 1_000_000n;
    const poolTokens = (p.supply * BigInt(Math.round(p.poolShare * 1e6))) / 1_000_000n;
    const minted = contractTokens > 0n ? 2 : 1;
    const tx = this.tx(p.createdBlock, minted + 6);
    this.launchTx = tx.hash;
    const creator = this.trader(this.creator);
    this.transferLog(tx, 0, ZERO, this.creator, p.supply - contractTokens, this.creator);
    creator.pos.receive(p.supply - contractTokens, 0);
    if (contractTokens > 0n) this.transferLog(tx, 1, ZERO, CONTRACT, contractTokens, this.creator);
    // minted + 0 is PairCreated, then the Mint sequence: token in, WETH in, LP out, Sync, Mint.
    this.transferLog(tx, minted + 1, this.creator, POOL, poolTokens, this.creator);
    creator.pos.send(poolTokens);
    const { lp, weth } = this.pair.add(poolTokens, toWei(p.initialWethEth));
    // PumpPad burns the LP tokens (liquidity locked); MoonLaunch hands them to the creator.
    if (p.launchpad === "PumpPad") this.lpBurned = lp;
    else creator.lp = lp;
    this.syncLog(tx, minted + 4);
    this.event(tx, minted + 5, "liquidity_add", this.creator, null, poolTokens, 2 * fromWei(weth) * this.ethUsd(tx.ms), null);
    this.settle(creator);
  }

  private perform(a: Action, block: number): boolean {
    switch (a.kind) {
      case "trade":
        return this.trade(block);
      case "buy": {
        const share = a.poolShare;
        const usd = share === undefined ? a.usd! : fromWei(this.pair.reserveWeth) * (share / (1 - share)) * 1.003 * this.ethUsd(a.ms);
        this.buy(a.wallet, share === undefined ? this.cappedUsd(usd, a.ms) : usd, block);
        return true;
      }
      case "exit": {
        const t = this.traders.get(a.wallet);
        if (!t || t.pos.quantity === 0n) return false;
        this.sell(a.wallet, a.share >= 0.999 ? t.pos.quantity : portion(t.pos.quantity, a.share), block);
        return true;
      }
      case "wash_buy":
        this.trader(a.wallet).washPending += this.buy(a.wallet, this.cappedUsd(a.usd, a.ms), block);
        return true;
      case "wash_sell": {
        const t = this.traders.get(a.wallet);
        if (!t || t.washPending === 0n || t.pos.quantity < t.washPending) return false;
        this.sell(a.wallet, t.washPending, block);
        t.washPending = 0n;
        return true;
      }
      case "burn": {
        const amount = (this.plan.supply * BigInt(Math.round(this.plan.burnShare * 1e6))) / 1_000_000n;
        if (this.trader(this.creator).pos.quantity < amount) return false;
        this.transfer(this.creator, DEAD, amount, block);
        return true;
      }
      case "rug": {
        const creator = this.trader(this.creator);
        if (creator.lp === 0n) return false;
        this.removeLiquidity(this.creator, portion(creator.lp, a.share), block);
        this.rugged = true;
        return true;
      }
      case "transfer":
        return this.randomTransfer(block);
      case "lp_add":
        return this.randomLiquidityAdd(block);
      case "lp_remove":
        return this.randomLiquidityRemove(block);
    }
  }

  /** An open-market swap: buy or sell by the mood of the moment. */
  private trade(block: number): boolean {
    const ms = this.ctx.chain.timeOf(block);
    const lastHour = ms > this.cutoff1h;
    const dumping = this.rugged || (lastHour && this.plan.phase === "dump");
    const pBuy = this.rugged
      ? 0.05
      : lastHour && this.plan.phase === "dump"
        ? 0.15
        : lastHour && this.plan.phase === "pump"
          ? 0.85
          : ms < this.t0 + 0.2 * this.life
            ? 0.7
            : 0.5;
    if (!this.rng.chance(pBuy)) {
      const price = this.priceUsd(ms);
      const seller = this.pickHolder((t) => {
        const persona = this.ctx.pop.personaOf(t.w);
        if (t.w === this.creator || persona === "wash_trader" || (persona === "sniper" && this.ctx.pop.clusterOf[t.w] >= 0)) return false;
        // Smart money sells into strength: a position under water is held.
        return persona !== "smart_money" || (Number(t.pos.quantity) / 1e18) * price >= t.pos.costBasisUsd;
      });
      if (seller >= 0) {
        const qty = this.trader(seller).pos.quantity;
        const part = this.rng.chance(dumping ? 0.85 : 0.3) ? qty : portion(qty, this.rng.between(0.2, 0.8));
        this.sell(seller, part > 0n ? part : qty, block);
        return true;
      }
    }
    const buyer = this.pickBuyer(ms);
    const [median, sigma] = BUY_USD[this.ctx.pop.personaOf(buyer)];
    this.buy(buyer, this.cappedUsd(this.rng.lognormal(median, sigma), ms), block);
    return true;
  }

  /** Buys stay under a tenth of the pool's WETH side so one order cannot empty it. */
  private cappedUsd(usd: number, ms: number): number {
    return Math.max(0.5, Math.min(usd, 0.1 * fromWei(this.pair.reserveWeth) * this.ethUsd(ms)));
  }

  private pickBuyer(ms: number): number {
    if (ms >= this.ctx.chain.nowMs - 2 * DAY_MS && this.rng.chance(0.25)) {
      const fresh = this.ctx.pop.sampleFresh(this.rng, ms);
      if (fresh >= 0) return fresh;
    }
    let w = 0;
    for (let tries = 0; tries < 3; tries++) {
      w = this.traderPool[Math.floor(this.traderPool.length * this.rng.float() ** 1.6)];
      // Smart money gets in early or not at all.
      if (this.ctx.pop.personaOf(w) !== "smart_money" || ms <= this.t0 + 0.3 * this.life) break;
    }
    return w;
  }

  private pickHolder(ok: (t: Trader) => boolean): number {
    for (let tries = 0; tries < 6 && this.holders.length; tries++) {
      const t = this.traders.get(this.holders[this.rng.int(0, this.holders.length - 1)])!;
      if (ok(t)) return t.w;
    }
    return -1;
  }

  private buy(w: number, usd: number, block: number): bigint {
    const tx = this.tx(block, 4);
    const wethIn = toWei(usd / this.ethUsd(tx.ms));
    const paidUsd = fromWei(wethIn) * this.ethUsd(tx.ms);
    const out = this.pair.buy(wethIn);
    // Logs: WETH in, token out, Sync, Swap.
    this.transferLog(tx, 1, POOL, w, out, w);
    const t = this.trader(w);
    t.pos.buy(out, paidUsd, block, tx.ms);
    t.lastBuy = { block, usd: paidUsd, tx: tx.hash };
    this.syncLog(tx, 2);
    this.swapEvent(tx, t, out, paidUsd, "buy");
    return out;
  }

  private sell(w: number, qty: bigint, block: number): void {
    const tx = this.tx(block, 4);
    // Logs: token in, WETH out, Sync, Swap.
    this.transferLog(tx, 0, w, POOL, qty, w);
    const usd = fromWei(this.pair.sell(qty)) * this.ethUsd(tx.ms);
    const t = this.trader(w);
    t.pos.sell(qty, usd, block);
    const b = t.lastBuy;
    if (b && block - b.block <= ROUND_TRIP_BLOCKS && Math.abs(usd - b.usd) <= ROUND_TRIP_USD_DIFF * b.usd) {
      t.roundTrips++;
      t.roundTripUsd += usd + b.usd;
      t.roundTripTxs.push(b.tx, tx.hash);
      t.lastBuy = null;
    }
    if (tx.ms > this.cutoff24h) {
      t.sold24hQty += qty;
      t.sells24hTxs.push(tx.hash);
    }
    this.syncLog(tx, 2);
    this.swapEvent(tx, t, qty, usd, "sell");
  }

  private swapEvent(tx: Tx, t: Trader, amount: bigint, usd: number, direction: "buy" | "sell"): void {
    this.event(tx, 3, "swap", t.w, null, amount, usd, direction);
    this.ctx.stats.trades[t.w]++;
    this.volumeUsd += usd;
    const cluster = this.ctx.pop.clusterOf[t.w];
    if (cluster >= 0) this.clusterVolume.set(cluster, (this.clusterVolume.get(cluster) ?? 0) + usd);
    if (tx.ms > this.cutoff24h) {
      this.volume24hUsd += usd;
      if (direction === "buy") t.bought24hUsd += usd;
      else t.sold24hUsd += usd;
      if (this.ctx.pop.personaOf(t.w) === "smart_money") {
        if (direction === "buy") this.smBought24hUsd += usd;
        else this.smSold24hUsd += usd;
      }
    }
    this.settle(t);
  }

  private transfer(from: number, to: number, qty: bigint, block: number): void {
    const tx = this.tx(block, 1);
    const value = (Number(qty) / 1e18) * this.priceUsd(tx.ms);
    this.transferLog(tx, 0, from, to, qty, from);
    const sender = this.trader(from);
    sender.pos.send(qty);
    this.settle(sender);
    if (to >= 0) {
      const receiver = this.trader(to);
      receiver.pos.receive(qty, value);
      this.settle(receiver);
    }
    this.event(tx, 0, "transfer", from, to, qty, value, null);
  }

  private randomTransfer(block: number): boolean {
    const pop = this.ctx.pop;
    const from = this.pickHolder((t) => pop.personaOf(t.w) !== "wash_trader");
    if (from < 0) return false;
    const ms = this.ctx.chain.timeOf(block);
    const cluster = pop.clusterOf[from];
    let to = cluster >= 0 && this.rng.chance(0.5) ? this.rng.pick(pop.clusters[cluster].members) : -1;
    if (to < 0 || to === from) {
      to = this.rng.chance(0.05) ? DEAD : this.rng.chance(0.5) ? pop.sampleFresh(this.rng, ms) : -1;
      if (to === -1 || to === from) to = pop.sampleTrader(this.rng);
      if (to === from) to = DEAD;
    }
    const qty = this.trader(from).pos.quantity;
    const part = this.rng.chance(0.25) ? qty : portion(qty, this.rng.between(0.05, 0.9));
    this.transfer(from, to, part > 0n ? part : qty, block);
    return true;
  }

  private randomLiquidityAdd(block: number): boolean {
    if (this.rugged) return false;
    const w = this.pickHolder((t) => t.w !== this.creator && this.ctx.pop.personaOf(t.w) !== "wash_trader");
    if (w < 0) return false;
    const t = this.trader(w);
    const tokens = portion(t.pos.quantity, this.rng.between(0.3, 0.8));
    if (tokens === 0n) return false;
    const tx = this.tx(block, 5);
    // Logs: token in, WETH in, LP minted, Sync, Mint.
    this.transferLog(tx, 0, w, POOL, tokens, w);
    t.pos.send(tokens);
    const { lp, weth } = this.pair.add(tokens);
    if (t.lp === 0n) this.lpProviders.push(w);
    t.lp += lp;
    this.syncLog(tx, 3);
    this.event(tx, 4, "liquidity_add", w, null, tokens, 2 * fromWei(weth) * this.ethUsd(tx.ms), null);
    this.settle(t);
    return true;
  }

  private randomLiquidityRemove(block: number): boolean {
    const providers = this.lpProviders.filter((w) => this.trader(w).lp > 0n);
    if (!providers.length) return this.randomLiquidityAdd(block);
    const w = this.rng.pick(providers);
    this.removeLiquidity(w, portion(this.trader(w).lp, this.rng.between(0.5, 1)), block);
    return true;
  }

  private removeLiquidity(w: number, lp: bigint, block: number): void {
    const tx = this.tx(block, 6);
    const wethBefore = this.pair.reserveWeth;
    const { token, weth } = this.pair.remove(lp);
    const t = this.trader(w);
    t.lp -= lp;
    // Logs: LP in, LP burned, token out, WETH out, Sync, Burn.
    this.transferLog(tx, 2, POOL, w, token, w);
    t.pos.receive(token, (Number(token) / 1e18) * this.priceUsd(tx.ms));
    this.syncLog(tx, 4);
    const removedShare = wethBefore > 0n ? fromWei(weth) / fromWei(wethBefore) : 0;
    if (!this.largestRemoval || removedShare > this.largestRemoval.share) {
      this.largestRemoval = { share: removedShare, wallet: this.addressOf(w), tx: tx.hash };
    }
    this.event(tx, 5, "liquidity_remove", w, null, token, 2 * fromWei(weth) * this.ethUsd(tx.ms), null);
    this.settle(t);
  }

  // ---- the token's rows once its history is written ---------------------------------------

  private finish(): ScoreDraft {
    const { chain, stats, sink } = this.ctx;
    const p = this.plan;
    const now = chain.nowMs;
    const nowIso = iso(now);
    const priceUsd = this.priceUsd(now);
    const dead = this.special.get(DEAD)!;
    const contract = this.special.get(CONTRACT)!;
    const pool = this.special.get(POOL)!;
    if (pool.amount !== this.pair.reserveToken) throw new Error(`pool balance of ${p.address} drifted from its reserve`);
    const circulating = p.supply - dead.amount - contract.amount;
    const marketCapUsd = (Number(circulating) / 1e18) * priceUsd;
    const liquidityUsd = 2 * fromWei(this.pair.reserveWeth) * this.ethUsd(now);
    const holderCount = this.holders.length;
    const base = this.count1hAgo ?? holderCount;
    const growth = ((holderCount - base) / Math.max(base, 1)) * 100;

    const wallets = [...this.traders.values()];
    const holding = wallets
      .filter((t) => t.pos.quantity > 0n)
      .sort((a, b) => (b.pos.quantity > a.pos.quantity ? 1 : b.pos.quantity < a.pos.quantity ? -1 : a.w - b.w));
    const early = wallets.filter((t) => t.w !== this.creator && t.pos.firstBuyBlock !== null && t.pos.firstBuyBlock <= p.createdBlock + LAUNCH_WINDOW_BLOCKS);
    const risk = assessToken(this.riskFacts(wallets, holding, early, liquidityUsd, marketCapUsd));
    const trending = Math.max(0, (Math.log10(1 + this.volume24hUsd) * 20 + Math.min(200, Math.max(-50, growth)) * 0.1) * (1 - risk.riskScore / 200));
    const createdAt = iso(this.t0);

    sink.add("tokens", [
      p.address,
      p.name,
      p.symbol,
      "18",
      p.supply.toString(),
      p.launchpad,
      p.sector,
      this.addressOf(this.creator),
      p.pool,
      String(p.createdBlock),
      this.launchTx,
      createdAt,
    ]);
    const [token0, token1, r0, r1] =
      p.address < this.ctx.weth
        ? [p.address, this.ctx.weth, this.pair.reserveToken, this.pair.reserveWeth]
        : [this.ctx.weth, p.address, this.pair.reserveWeth, this.pair.reserveToken];
    sink.add("pools", [
      p.pool,
      this.ctx.factory,
      this.ctx.dex,
      token0,
      token1,
      r0.toString(),
      r1.toString(),
      this.pair.lpSupply.toString(),
      num(liquidityUsd, 2),
      String(p.createdBlock),
      String(this.lastSyncBlock),
    ]);
    sink.add("token_metrics", [
      p.address,
      createdAt,
      num(priceUsd, 12),
      num(marketCapUsd, 2),
      num(liquidityUsd, 2),
      num(this.volume24hUsd, 2),
      String(holderCount),
      num(growth, 2),
      num(trending, 4),
      num(risk.riskScore, 1),
      textArray(risk.flags),
      p.pool,
      String(this.lastBlock),
      nowIso,
    ]);
    for (const [holder, s] of this.special) {
      if (s.amount > 0n) sink.add("balances", [p.address, this.addressOf(holder), s.amount.toString(), String(s.block)]);
    }
    for (const t of wallets) {
      const pos = t.pos;
      if (pos.quantity > 0n) sink.add("balances", [p.address, this.addressOf(t.w), pos.quantity.toString(), String(t.balanceBlock)]);
      sink.add("wallet_positions", [
        this.addressOf(t.w),
        p.address,
        pos.quantity.toString(),
        num(pos.costBasisUsd, 4),
        num(pos.realizedPnlUsd, 4),
        num(pos.boughtUsd, 4),
        num(pos.soldUsd, 4),
        pos.unknownCostQuantity.toString(),
        String(pos.buyCount),
        String(pos.sellCount),
        pos.firstBuyBlock === null ? null : String(pos.firstBuyBlock),
        pos.lastTradeBlock === null ? null : String(pos.lastTradeBlock),
      ]);
      stats.addPosition(t.w, pos, priceUsd, p.createdBlock, this.t0);
    }

    const earlyMoverNetActivity = netActivity(early);
    const summary: SummaryInput = {
      name: p.name,
      symbol: p.symbol,
      sector: p.sector,
      launchpad: p.launchpad,
      createdAt,
      priceUsd,
      marketCapUsd,
      liquidityUsd,
      volume24hUsd: this.volume24hUsd,
      holderCount,
      holderGrowth1hPct: growth,
      risk,
      earlyMoverCount: early.length,
      earlyMoverNetActivity,
    };
    return {
      top10: holding.slice(0, 10).map((t) => t.w),
      summary: tokenSummary(summary),
      row: [
        p.address,
        num(risk.riskScore, 1),
        risk.riskLevel,
        textArray(risk.flags),
        num(risk.holderConcentration, 2),
        num(risk.liquidityStability, 2),
        num(risk.washTrade, 2),
        num(risk.smartMoneyFlow, 2),
        String(early.length),
        earlyMoverNetActivity,
        null,
        JSON.stringify(risk.evidence),
        METHOD_VERSION,
        null,
        null,
        nowIso,
      ],
    };
  }

  /** What the risk rules look at, gathered from the finished market. */
  private riskFacts(wallets: Trader[], holding: Trader[], early: Trader[], liquidityUsd: number, marketCapUsd: number): TokenFacts {
    const pop = this.ctx.pop;
    const asHolder = (t: Trader): Holder => ({
      wallet: this.addressOf(t.w),
      cluster: pop.clusterOf[t.w],
      funder: pop.funder(t.w),
      amount: t.pos.quantity,
      tx: t.entryTx,
    });
    const washers = new Map<string, TokenFacts["washEntities"][number]>();
    for (const t of wallets) {
      if (!t.roundTrips) continue;
      const key = pop.clusterId(t.w) ?? this.addressOf(t.w);
      const e = washers.get(key) ?? { wallets: [], funder: pop.clusterOf[t.w] >= 0 ? pop.funder(t.w) : null, roundTrips: 0, volumeUsd: 0, txs: [] };
      e.wallets.push(this.addressOf(t.w));
      e.roundTrips += t.roundTrips;
      e.volumeUsd += t.roundTripUsd;
      e.txs.push(...t.roundTripTxs);
      washers.set(key, e);
    }
    const smart = wallets.filter((t) => pop.personaOf(t.w) === "smart_money" && t.pos.buyCount > 0);
    return {
      supply: this.plan.supply,
      holders: holding.map(asHolder),
      launchBuyers: early.map(asHolder),
      largestRemoval: this.largestRemoval,
      peakWethReserve: fromWei(this.peakWeth),
      wethReserve: fromWei(this.pair.reserveWeth),
      unlockedLpShare: Number(((this.pair.lpSupply - this.lpBurned - 1000n) * 10_000n) / this.pair.lpSupply) / 10_000,
      liquidityUsd,
      marketCapUsd,
      volumeUsd: this.volumeUsd,
      washEntities: [...washers.values()],
      topClusterVolumeUsd: Math.max(0, ...this.clusterVolume.values()),
      smartMoney: smart.map((t) => ({ wallet: this.addressOf(t.w), exited: t.sold24hQty * 2n >= t.pos.peakQuantity, txs: t.sells24hTxs })),
      smBought24hUsd: this.smBought24hUsd,
      smSold24hUsd: this.smSold24hUsd,
    };
  }
}

/** Early movers together: all out, or buying / selling on net over the last 24 h (1% dead band). */
function netActivity(early: Trader[]): string {
  if (early.length && early.every((t) => t.pos.quantity === 0n)) return "exited";
  const net = early.reduce((s, t) => s + t.bought24hUsd - t.sold24hUsd, 0);
  const flow = early.reduce((s, t) => s + t.bought24hUsd + t.sold24hUsd, 0);
  return net > 0.01 * flow ? "accumulating" : net < -0.01 * flow ? "distributing" : "holding";
}

/** `share` (0..1) of a raw amount, exact to 1e-6. */
function portion(amount: bigint, share: number): bigint {
  return (amount * BigInt(Math.round(share * 1e6))) / 1_000_000n;
}

/** Simulates one token from launch to `now`, writing its rows; its score row waits for reputations. */
export function simulateToken(ctx: MarketContext, plan: TokenPlan): ScoreDraft {
  return new TokenMarket(ctx, plan).run();
}
