/**
 * Simulated wallets: real key pairs derived from the seed (the same seed always yields the same
 * addresses). The node is told to accept their transactions unsigned (impersonation), which is
 * much cheaper than signing in JavaScript; the keys are there for anyone who wants to sign.
 */
import { type Address, type Hex, keccak256, toHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { lower } from "../encoding";
import type { GroundTruthRecorder, PlantedClass } from "./ground-truth";
import type { Market } from "./market";

export function walletPrivateKey(seed: number, index: number): Hex {
  return keccak256(toHex(`devchain wallet ${seed}/${index}`));
}

export class Wallets {
  private next = 0;

  constructor(
    private readonly seed: number,
    private readonly market: Market,
    private readonly truth: GroundTruthRecorder,
  ) {}

  /** A new wallet of the planted class. `eth` > 0 gives it ether off-chain (no funding edge);
   * wallets funded on chain get their ether from a funder's transfer instead. */
  create(planted: PlantedClass, eth = 0n): Address {
    const address = lower(privateKeyToAddress(walletPrivateKey(this.seed, this.next++)));
    this.market.register(address, eth);
    this.truth.classify(address, planted);
    return address;
  }
}
