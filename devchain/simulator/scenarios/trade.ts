/** Buying and selling a launch token the way the wallet trades: with ether, or through WETH. */
import type { Address } from "viem";
import type { Actors } from "../actors";
import { spendable } from "../actors";
import { part, type Sim } from "../sim";
import type { SimToken } from "../tokens";

/** Spends `eth` on the token; returns the tokens bought (0n when the wallet can't afford it). */
export function buy(sim: Sim, actors: Actors, wallet: Address, token: SimToken, eth: bigint): bigint {
  const { market } = sim;
  if (eth <= 0n) return 0n;
  if (!actors.wethTraders.has(wallet)) {
    return spendable(sim, wallet) >= eth ? market.buyWithEth(wallet, token.address, eth) : 0n;
  }
  const weth = market.ledger.balanceOf(market.weth, wallet);
  if (weth < eth) {
    // Wrap what is missing, or half the ether at hand if that is more, to wrap less often.
    const available = spendable(sim, wallet);
    const wrap = eth - weth > part(available, 0.5) ? eth - weth : part(available, 0.5);
    if (wrap > available) return 0n;
    market.wrap(wallet, wrap);
  }
  return market.swap(wallet, [market.weth, token.address], eth);
}

/** Sells `amount` of the token; returns the ether (or WETH) received. */
export function sell(sim: Sim, actors: Actors, wallet: Address, token: SimToken, amount: bigint): bigint {
  const { market } = sim;
  if (amount <= 0n) return 0n;
  if (actors.wethTraders.has(wallet)) return market.swap(wallet, [token.address, market.weth], amount);
  return market.sellForEth(wallet, token.address, amount);
}

export function holding(sim: Sim, wallet: Address, token: SimToken): bigint {
  return sim.market.ledger.balanceOf(token.address, wallet);
}

/** Sells everything the wallet holds of the token; returns what it received. */
export function sellAll(sim: Sim, actors: Actors, wallet: Address, token: SimToken): bigint {
  return sell(sim, actors, wallet, token, holding(sim, wallet, token));
}
