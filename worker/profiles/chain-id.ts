import type { Rpc } from "../indexer/rpc";
import type { ChainProfile } from "./types";

/** The node serves another chain than the profile's: indexing would mix two chains' data. */
export class ChainIdMismatchError extends Error {}

/** Refuses a node whose eth_chainId is not the profile's. */
export async function checkChainId(rpc: Rpc, profile: ChainProfile): Promise<void> {
  const chainId = Number(await rpc.call<string>("eth_chainId", []));
  if (chainId !== profile.chainId) {
    throw new ChainIdMismatchError(
      `RPC_URL serves chain id ${chainId}, but CHAIN_PROFILE=${profile.name} is chain id ${profile.chainId}: ` +
        `point RPC_URL at a ${profile.name} node or pick the profile of that chain`,
    );
  }
}
