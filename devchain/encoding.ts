/** Small conventions shared by the dev chain's modules. */
import type { Address, Hex } from "viem";

export const MAX_UINT256 = 2n ** 256n - 1n;
/** Router deadlines mean nothing on the dev chain: far in the future. */
export const NO_DEADLINE = 2n ** 40n;

/** Addresses are lowercase everywhere in the dev chain's outputs, as in the API. */
export function lower(address: string): Address {
  return address.toLowerCase() as Address;
}

/** A JSON-RPC quantity. */
export function toQuantity(n: bigint | number): Hex {
  return `0x${n.toString(16)}`;
}
