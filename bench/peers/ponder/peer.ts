import type { ChainProfile, ProtocolKind } from "../../../worker/profiles/types";

/** The launchpads of one protocol and the one event they announce a token with (a Ponder factory reads one event). */
function launchpadsOf(profile: ChainProfile, protocol: ProtocolKind) {
  const launchpads = profile.launchpads.filter((l) => l.protocol === protocol);
  const events = new Set(launchpads.map((l) => l.event));
  if (events.size !== 1)
    throw new Error(`the Ponder peer reads one ${protocol} launchpad event; the profile has ${events.size}`);
  return {
    addresses: launchpads.map((l) => hex(l.address)),
    // Profiles may write the signature without the `event` keyword viem's parser wants.
    event: [...events][0].replace(/^(event\s+)?/, "event "),
  };
}

const hex = (a: string) => a.toLowerCase() as `0x${string}`;

function factoriesOf(profile: ChainProfile, protocol: ProtocolKind) {
  const factories = profile.factories.filter((f) => f.protocol === protocol).map((f) => hex(f.address));
  if (factories.length === 0)
    throw new Error(`the Ponder peer reads ${protocol} pools; the profile has no ${protocol} factory`);
  return factories;
}

/**
 * What the peer indexes, from the environment bench/indexer.ts sets: the worker's own chain
 * profile (the same factories, launchpads, WETH, stablecoins and pricing threshold) and RPC URL.
 */
function read() {
  const { PONDER_PEER_PROFILE, PONDER_PEER_RPC_URL, PONDER_PEER_WS_URL, PONDER_PEER_POLL_MS } = process.env;
  if (!PONDER_PEER_PROFILE || !PONDER_PEER_RPC_URL)
    throw new Error("PONDER_PEER_PROFILE and PONDER_PEER_RPC_URL are required (bench/indexer.ts sets them)");
  const profile = JSON.parse(PONDER_PEER_PROFILE) as ChainProfile;
  return {
    profile,
    chainId: profile.chainId,
    rpcUrl: PONDER_PEER_RPC_URL,
    wsUrl: PONDER_PEER_WS_URL || undefined,
    startBlock: profile.startBlock,
    pollingIntervalMs: Number(PONDER_PEER_POLL_MS ?? 1000),
    v2: { factories: factoriesOf(profile, "uniswap-v2"), launchpads: launchpadsOf(profile, "uniswap-v2") },
    v3: { factories: factoriesOf(profile, "uniswap-v3"), launchpads: launchpadsOf(profile, "uniswap-v3") },
  };
}

export const peer = read();
