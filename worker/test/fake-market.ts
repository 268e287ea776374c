import { TOPICS } from "@/worker/indexer/decode";
import type { ChainProfile } from "@/worker/profiles";
import { addr, FAKE_LAUNCH_EVENT, FakeChain, ZERO } from "./fake-chain";

const WETH = addr(0xe1);
const USD = addr(0xe2);
const FACTORY = addr(0xf1);
const LAUNCHPAD = addr(0xf2);
const WETH_USD = addr(0xa0);
const E18 = 10n ** 18n;

export const fakeProfile: ChainProfile = {
  name: "fake",
  chainId: 31337,
  startBlock: 1,
  finalityDepth: 5,
  weth: WETH,
  quoteTokens: [
    { address: WETH, symbol: "WETH", decimals: 18, stable: false },
    { address: USD, symbol: "USD", decimals: 6, stable: true },
  ],
  factories: [{ address: FACTORY, name: "FakeSwap", protocol: "uniswap-v2" }],
  positionManagers: [],
  launchpads: [{ address: LAUNCHPAD, name: "PumpPad", protocol: "uniswap-v2", event: FAKE_LAUNCH_EVENT }],
  poolTokens: false,
  lockers: [],
  otherContracts: [],
  minQuoteLiquidityUsd: 100,
  scanPayments: true,
  initialBlockRange: 7,
  addressChunkSize: 3,
};

type Market = { token: string; pair: string; r: [bigint, bigint] };

/**
 * A deterministic market on a FakeChain: launches through the launchpad, buys, sells, wallet
 * transfers and native payments (funders), from a seed. Token is token0 of its pair, WETH token1.
 */
export class FakeMarket {
  readonly chain = new FakeChain();
  private markets: Market[] = [];
  private seed: number;

  constructor(seed = 7) {
    this.seed = seed;
    const c = this.chain;
    c.tx(addr(1))
      .pairCreated(FACTORY, WETH, USD, WETH_USD)
      .sync(WETH_USD, 100n * E18, 300_000n * 10n ** 6n);
    c.mint(WETH_USD, addr(1), 100n * E18, 300_000n * 10n ** 6n);
    c.mine();
  }

  private rand(n: number) {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((this.seed / 2 ** 31) * n);
  }

  private launch(creator: string): Market {
    const i = this.markets.length;
    const token = addr(0x1000 + i);
    const pair = addr(0x2000 + i);
    const supply = 1_000_000n * E18;
    this.chain
      .tx(creator)
      .pairCreated(FACTORY, token, WETH, pair)
      .transfer(token, ZERO, LAUNCHPAD, supply)
      .transfer(token, LAUNCHPAD, pair, supply / 2n)
      .transfer(token, LAUNCHPAD, creator, supply / 10n)
      .sync(pair, supply / 2n, 10n * E18)
      .mint(pair, LAUNCHPAD, supply / 2n, 10n * E18)
      .launched(LAUNCHPAD, token, pair, creator, `Pepe Moon ${i}`, `PM${i}`, supply);
    return { token, pair, r: [supply / 2n, 10n * E18] };
  }

  private trade(m: Market, trader: string, buy: boolean, amountIn: bigint) {
    const c = this.chain;
    const [rt, rw] = m.r;
    if (buy) {
      const out = (amountIn * rt) / (rw + amountIn) / 2n;
      c.tx(trader, null, amountIn).transfer(m.token, m.pair, trader, out);
      m.r = [rt - out, rw + amountIn];
      c.sync(m.pair, ...m.r).swap(m.pair, 0n, amountIn, out, 0n, trader, trader);
    } else {
      const out = (amountIn * rw) / (rt + amountIn) / 2n;
      c.tx(trader).transfer(m.token, trader, m.pair, amountIn);
      m.r = [rt + amountIn, rw - out];
      c.sync(m.pair, ...m.r).swap(m.pair, amountIn, 0n, 0n, out, trader, trader);
    }
  }

  simulate(blocks: number, tradesPerBlock = 3) {
    const c = this.chain;
    for (let b = 0; b < blocks; b++) {
      if (this.rand(4) === 0 && this.markets.length < 8)
        this.markets.push(this.launch(addr(0x500 + this.markets.length)));
      for (let t = 0; t < tradesPerBlock && this.markets.length > 0; t++) {
        const m = this.markets[this.rand(this.markets.length)];
        const trader = addr(0x900 + this.rand(40));
        const held = c.balances.get(`${m.token}:${trader}`) ?? 0n;
        if (held > 0n && this.rand(2) === 0) this.trade(m, trader, false, held / 2n);
        else if (held > 0n && this.rand(5) === 0)
          c.tx(trader).transfer(m.token, trader, addr(0x900 + this.rand(40)), held / 3n);
        else this.trade(m, trader, true, BigInt(1 + this.rand(5)) * 10n ** 17n);
      }
      if (this.rand(6) === 0) c.tx(addr(0x77 + this.rand(2)), addr(0x900 + this.rand(40)), 10n ** 16n);
      c.mine();
    }
  }

  /** Drops the last `depth` blocks and recomputes the market from the surviving logs. */
  reorg(depth: number) {
    const c = this.chain;
    c.reorg(depth);
    c.balances.clear();
    c.reserves.clear();
    const byPair = new Map<string, Market>();
    for (const l of c.blocks.flatMap((b) => b.logs)) {
      const data = l.data.slice(2);
      const w = (i: number) => BigInt(`0x${data.slice(i * 64, (i + 1) * 64)}`);
      const topicAddr = (i: number) => `0x${l.topics[i].slice(26)}`;
      if (l.topics[0] === TOPICS.transfer) {
        const k = (h: string) => `${l.address}:${h}`;
        if (topicAddr(1) !== ZERO) c.balances.set(k(topicAddr(1)), (c.balances.get(k(topicAddr(1))) ?? 0n) - w(0));
        if (topicAddr(2) !== ZERO) c.balances.set(k(topicAddr(2)), (c.balances.get(k(topicAddr(2))) ?? 0n) + w(0));
      } else if (l.topics[0] === TOPICS.sync) {
        c.reserves.set(l.address, [w(0), w(1)]);
        const m = byPair.get(l.address);
        if (m) m.r = [w(0), w(1)];
      } else if (l.topics[0] === TOPICS.pairCreated && topicAddr(1) !== WETH) {
        byPair.set(`0x${data.slice(24, 64)}`, { token: topicAddr(1), pair: `0x${data.slice(24, 64)}`, r: [0n, 0n] });
      }
    }
    this.markets = [...byPair.values()];
  }

  get tokenCount() {
    return this.markets.length;
  }
}
