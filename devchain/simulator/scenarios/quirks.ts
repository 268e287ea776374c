/**
 * Quirk tokens in the market: now and then a retail wallet trades one of the deployment's quirk
 * tokens (fee-on-transfer, burnt or paid to a wallet; bytes32 name and symbol; no decimals(); a
 * honeypot, an owner-mintable token, a tax token) in its V2 pair against its quote, ether for WETH,
 * otherwise the dollar (6 or 18 decimals) it buys with ether first; it sells part of what it holds
 * later (never the honeypot: its sells revert), or passes some on to another wallet. These
 * tokens are no launches: the ground truth does not list them, the indexer finds them by their pairs.
 */
import { type Actors, spendable } from "../actors";
import { ether, MINUTE, part, type Sim } from "../sim";

/** The market trades each quirk token about once per this many slots (all of them together, more often). */
const QUIRK_TRADE_GAP_PER_TOKEN = 80 * MINUTE;

export function startQuirkTrading(sim: Sim, actors: Actors): void {
  const { market } = sim;
  const quirks = market.deployment.quirks;
  if (quirks.length === 0) return;
  const rng = sim.rng.fork("quirks");
  const gap = QUIRK_TRADE_GAP_PER_TOKEN / quirks.length;
  const trade = () => {
    sim.after(rng.exp(gap), trade);
    if (actors.retail.length < 2) return;
    const wallet = rng.pick(actors.retail);
    const { address: token, quote, quirk } = rng.pick(quirks);
    const held = market.ledger.balanceOf(token, wallet);
    if (held > 0n && rng.chance(0.1)) {
      market.transfer(token, wallet, rng.pick(actors.retail.filter((w) => w !== wallet)), part(held, 0.5));
    } else if (held > 0n && quirk !== "honeypot" && rng.chance(0.5)) {
      market.sellQuirk(wallet, token, quote, part(held, rng.float(0.3, 1)));
    } else {
      const eth = ether(rng.float(0.02, 0.2));
      if (spendable(sim, wallet) < eth) return;
      const paid = quote === market.weth ? eth : market.buyWithEth(wallet, quote, eth);
      if (paid > 0n) market.buyQuirk(wallet, token, quote, paid);
    }
  };
  sim.at(rng.int(1, Math.ceil(gap)), trade);
}
