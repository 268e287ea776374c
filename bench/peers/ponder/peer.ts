import type { ChainProfile } from "../../../worker/profiles/types";

/** The Uniswap V2 side of the profile: the peer reads V2 pairs only. */
const v2 = <T extends { protocol: string }>(xs: T[]) => xs.filter((x) => x.protocol === "uniswap-v2");

/** The one event the V2 launchpads announce a token with (a Ponder factory reads one event). */
function launchEvent(profile: ChainProfile): string {
  const events = new Set(v2(profile.launchpads).map((l) => l.event));
  if (events.size !== 1) throw new Error(`the Ponder peer reads one V2 launchpad event; the profile has ${events.size}`);
  // Profiles may write the signature without the `event` keyword viem's parser wants.
  return [...events][0].replace(/^(event\s+)?/, "event ");
}

/**
 * What the peer indexes, from the environment bench/indexer.ts sets: the worker's own chain
 * profile (the same factories, launchpads, WETH, stablecoins and pricing threshold) and RPC URL.
 */
function read() {
  const { PONDER_PEER_PROFILE, PONDER_PEER_RPC_URL, PONDER_PEER_POLL_MS } = process.env;
  if (!PONDER_PEER_PROFILE || !PONDER_PEER_RPC_URL) throw new Error("PONDER_PEER_PROFILE and PONDER_PEER_RPC_URL are required (bench/indexer.ts sets them)");
  const profile = JSON.parse(PONDER_PEER_PROFILE) as ChainProfile;
  const hex = (a: string) => a.toLowerCase() as `0x${string}`;
  return {
    profile,
    chainId: profile.chainId,
    rpcUrl: PONDER_PEER_RPC_URL,
    startBlock: profile.startBlock,
    pollingIntervalMs: Number(PONDER_PEER_POLL_MS ?? 1000),
    factories: v2(profile.factories).map((f) => hex(f.address)),
    launchpads: v2(profile.launchpads).map((l) => hex(l.address)),
    launchEvent: launchEvent(profile),
  };
}

export const peer = read();
