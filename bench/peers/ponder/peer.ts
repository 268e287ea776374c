import type { ChainProfile } from "../../../worker/profiles/types";

/**
 * What the peer indexes, from the environment bench/indexer.ts sets: the worker's own chain
 * profile (the same factories, launchpads, WETH, stablecoins and pricing threshold) and RPC URL.
 */
/** The one event the launchpads announce a token with (a Ponder factory reads one event). */
function launchEvent(profile: ChainProfile): string {
  const events = new Set(profile.launchpads.map((l) => l.event));
  if (events.size !== 1) throw new Error(`the Ponder peer reads one launchpad event; the profile has ${events.size}`);
  return [...events][0];
}

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
    factories: profile.factories.filter((f) => f.protocol === "uniswap-v2").map((f) => hex(f.address)),
    launchpads: profile.launchpads.map((l) => hex(l.address)),
    launchEvent: launchEvent(profile),
  };
}

export const peer = read();
