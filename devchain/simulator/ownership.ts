/**
 * Who truly owns each launched token, from the simulator's own knowledge rather than from indexed
 * data: an owner is a simulated wallet together with every wallet it planted and paid to act for
 * it (a creator's insiders, a bundle's sybils, a wash ring), chains of such control merged. Pools,
 * burned tokens and contracts are not owners (only simulated wallets are); exchange customers and
 * airdrop recipients act for themselves, so a hot wallet or a distributor owns nothing through them.
 */
import type { Address } from "viem";
import type { GroundTruthRecorder, PlantedKind } from "./ground-truth";
import { type Ledger, ZERO_ADDRESS } from "./ledger";

/**
 * The concentrated_ownership flag's definition (docs/methodology.md): the ten largest owners hold
 * at least half the circulating supply, or one holds at least 15%. Kept here rather than imported
 * from the engine's weights so that tuning the engine cannot move its ground truth.
 */
export const CONCENTRATED = { top10Share: 0.5, top1Share: 0.15 } as const;

/** Planted behaviours whose wallets act for their funder. */
const CONTROLLED: readonly PlantedKind[] = ["insider", "sybil_launch", "wash_ring"];

export interface Ownership {
  top1Share: number;
  top10Share: number;
  owners: number;
  concentrated: boolean;
}

/** Each controlled wallet's controller. */
export function controllers(truth: GroundTruthRecorder): Map<Address, Address> {
  const controllerOf = new Map<Address, Address>();
  for (const p of truth.planted) {
    if (!CONTROLLED.includes(p.kind) || !p.funder) continue;
    for (const wallet of p.wallets ?? []) controllerOf.set(wallet, p.funder);
  }
  return controllerOf;
}

/** The token's owners by share of circulating supply (total supply minus the zero address's). */
export function trueOwnership(
  ledger: Ledger,
  truth: GroundTruthRecorder,
  controllerOf: Map<Address, Address>,
  token: Address,
): Ownership {
  const supply = ledger.supplyOf(token) - ledger.balanceOf(token, ZERO_ADDRESS);
  const ownerOf = (wallet: Address) => {
    let owner = wallet;
    for (const seen = new Set<Address>(); controllerOf.has(owner) && !seen.has(owner); seen.add(owner))
      owner = controllerOf.get(owner)!;
    return owner;
  };
  const held = new Map<Address, bigint>();
  for (const [holder, balance] of ledger.holdersOf(token)) {
    if (balance <= 0n || !(holder in truth.wallets)) continue;
    const owner = ownerOf(holder);
    held.set(owner, (held.get(owner) ?? 0n) + balance);
  }
  const shares = [...held.values()]
    .map((b) => (supply > 0n ? Number((b * 1_000_000n) / supply) / 1e6 : 0))
    .sort((a, b) => b - a);
  const top1Share = shares[0] ?? 0;
  const top10Share = shares.slice(0, 10).reduce((a, b) => a + b, 0);
  const concentrated = top10Share >= CONCENTRATED.top10Share || top1Share >= CONCENTRATED.top1Share;
  return { top1Share, top10Share, owners: shares.length, concentrated };
}
