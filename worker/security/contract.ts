/**
 * Who controls a token and what its code can do: owner() (or getOwner()), renounced when it is the
 * zero or dead address; a proxy by its EIP-1967 implementation or beacon slot or as an EIP-1167
 * clone, whose implementation's code is read as well; the capabilities its selectors show
 * (bytecode.ts). A read that fails or answers garbage makes its check unknown.
 */
import { encodeFunctionData, type Hex, keccak256, parseAbi, toBytes, toHex } from "viem";
import type { CodeCheck, OwnerCheck } from "@/lib/domain/security";
import { capabilitiesOf, cloneTarget } from "./bytecode";
import { type ChainAt, Reverted, wordAddress } from "./chain";

/** Where a renounced owner points. */
export const BURN_ADDRESSES = new Set([
  "0x0000000000000000000000000000000000000000",
  "0x000000000000000000000000000000000000dead",
]);

/** keccak256(name) - 1, as EIP-1967 derives its slots. */
const eip1967Slot = (name: string) => toHex(BigInt(keccak256(toBytes(name))) - 1n, { size: 32 });
const IMPLEMENTATION_SLOT = eip1967Slot("eip1967.proxy.implementation");
const BEACON_SLOT = eip1967Slot("eip1967.proxy.beacon");

const abi = parseAbi([
  "function owner() view returns (address)",
  "function getOwner() view returns (address)",
  "function implementation() view returns (address)",
]);

export async function checkOwner(chain: ChainAt, token: string): Promise<OwnerCheck> {
  const [owner, getOwner] = await chain.calls(
    (["owner", "getOwner"] as const).map((functionName) => ({
      to: token,
      data: encodeFunctionData({ abi, functionName }),
    })),
  );
  // No owner() nor getOwner(): an empty or reverting answer from both.
  const answered = [owner, getOwner].find((a) => typeof a === "string" && a !== "0x");
  if (answered === undefined) return { status: "ok", state: "none" };
  const address = wordAddress(answered);
  if (!address) return { status: "unknown", reason: "owner() answered something that is not an address" };
  return { status: "ok", state: BURN_ADDRESSES.has(address) ? "renounced" : "active", address };
}

export async function checkCode(chain: ChainAt, token: string): Promise<CodeCheck> {
  const [code, implSlot, beaconSlot] = await Promise.all([
    chain.code(token),
    chain.storage(token, IMPLEMENTATION_SLOT),
    chain.storage(token, BEACON_SLOT),
  ]);
  if (!code || code === "0x") return { status: "unknown", reason: "the token has no code at this block" };
  let implementation = nonZero(wordAddress(implSlot)) ?? cloneTarget(code);
  const beacon = nonZero(wordAddress(beaconSlot));
  if (!implementation && beacon) {
    const answer = await chain.call({ to: beacon, data: encodeFunctionData({ abi, functionName: "implementation" }) });
    implementation = answer instanceof Reverted ? undefined : nonZero(wordAddress(answer));
    if (!implementation)
      return { status: "unknown", reason: "a beacon proxy whose beacon names no implementation", proxy: true };
  }
  const codes: Hex[] = [code];
  if (implementation) {
    const implCode = await chain.code(implementation);
    if (!implCode || implCode === "0x")
      return { status: "unknown", reason: "a proxy whose implementation has no code", proxy: true, implementation };
    codes.push(implCode);
  }
  return {
    status: "ok",
    ...capabilitiesOf(codes),
    proxy: implementation !== undefined,
    ...(implementation ? { implementation } : {}),
  };
}

const nonZero = (a: string | undefined) => (a && !BURN_ADDRESSES.has(a) ? a : undefined);
