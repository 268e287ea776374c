/**
 * The airdrop hard negative: the creator hands part of the supply to a distributor, which sends
 * equal amounts to many existing retail wallets, 25 transfers per block. Many wallets, one source,
 * but a token source (no ether funding) and no buying in the launch block.
 */
import type { Actors } from "../actors";
import type { Rng } from "../random";
import { MINUTE, part, type Sim } from "../sim";
import type { SimToken } from "../tokens";

const PER_BLOCK = 25;

export function scheduleAirdrop(sim: Sim, actors: Actors, token: SimToken, slot: number, rng: Rng): void {
  const { market } = sim;
  sim.at(slot, () => {
    const recipients = rng.sample(actors.retail, Math.min(rng.int(40, 100), actors.retail.length));
    if (recipients.length === 0) return;
    const distributor = sim.wallets.create("airdrop_distributor");
    const total = part(market.ledger.supplyOf(token.address), rng.float(0.03, 0.06));
    const held = market.ledger.balanceOf(token.address, token.creator);
    const each = (total < held ? total : held) / BigInt(recipients.length);
    if (each === 0n) return;
    market.transfer(token.address, token.creator, distributor, each * BigInt(recipients.length));
    const entry = sim.truth.plant({
      kind: "airdrop",
      token: token.address,
      funder: distributor,
      wallets: recipients,
      amountEach: each.toString(),
    });
    const first = sim.slot + rng.int(10 * MINUTE, 60 * MINUTE);
    for (let i = 0; i < recipients.length; i += PER_BLOCK) {
      const batch = recipients.slice(i, i + PER_BLOCK);
      sim.at(first + i / PER_BLOCK, () => {
        for (const wallet of batch) market.transfer(token.address, distributor, wallet, each);
        if (entry.block === undefined) {
          Object.assign(entry, sim.now);
          sim.label(token, "airdrop");
        }
        sim.extend(entry);
      });
    }
  });
}
