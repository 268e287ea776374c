import { decodeFunctionResult, encodeFunctionData, erc20Abi } from "viem";
import type { ChainProfile } from "../profiles";
import type { ChainLog } from "./decode";
import { toHex, type Rpc } from "./rpc";
import type { ChainState } from "./state";

export type NewToken = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  /** Supply before the first indexed block of the token: 0 when the indexer saw its creation. */
  supplyBase: bigint;
  launchpad: string;
  creator: string | null;
  launchPool: string | null;
  createdBlock: number;
  createdTx: string;
};

export type NewPool = { address: string; factory: string; dex: string; token0: string; token1: string; createdBlock: number };

type Erc20Read = "name" | "symbol" | "decimals" | "totalSupply";

async function readErc20(rpc: Rpc, reads: { token: string; fn: Erc20Read; block: number }[]) {
  const results = await rpc.batchSettled<string>(
    reads.map((r) => ({
      method: "eth_call",
      params: [{ to: r.token, data: encodeFunctionData({ abi: erc20Abi, functionName: r.fn }) }, toHex(r.block)],
    })),
  );
  return results.map((data, i) => {
    if (typeof data !== "string") return undefined;
    try {
      return decodeFunctionResult({ abi: erc20Abi, functionName: reads[i].fn, data: data as `0x${string}` });
    } catch {
      return undefined; // a non-standard token (bytes32 name, no decimals): defaults apply
    }
  });
}

/**
 * Stage one of discovery: launchpad and factory logs of a range name the tokens and pairs whose
 * logs stage two fetches. Launchpad tokens come from TokenLaunched; with no launchpads in the
 * profile, a token is the non-WETH side of a new WETH pair. A pair is tracked when it can carry
 * events of an indexed token or prices WETH. `state` learns the new tokens and pools at once.
 */
export async function discover(rpc: Rpc, state: ChainState, profile: ChainProfile, logs: ChainLog[]) {
  const launchpads = new Map(profile.launchpads.map((l) => [l.address, l.name]));
  const factories = new Map(profile.factories.map((f) => [f.address, f.name]));
  const tokens: NewToken[] = [];
  const pools: NewPool[] = [];

  for (const l of logs) {
    if (l.kind !== "tokenLaunched" || !launchpads.has(l.address) || state.tokens.has(l.token)) continue;
    tokens.push({
      address: l.token,
      name: l.name,
      symbol: l.symbol,
      decimals: 18,
      supplyBase: 0n,
      launchpad: launchpads.get(l.address)!,
      creator: l.creator,
      launchPool: l.pair,
      createdBlock: l.block,
      createdTx: l.txHash,
    });
  }
  if (launchpads.size === 0) {
    for (const l of logs) {
      if (l.kind !== "pairCreated" || !factories.has(l.address)) continue;
      const token = l.token0 === profile.weth ? l.token1 : l.token1 === profile.weth ? l.token0 : null;
      if (!token || state.isQuote(token) || state.tokens.has(token) || tokens.some((t) => t.address === token)) continue;
      tokens.push({
        address: token,
        name: "",
        symbol: "",
        decimals: 18,
        supplyBase: 0n,
        launchpad: factories.get(l.address)!,
        creator: null,
        launchPool: l.pair,
        createdBlock: l.block,
        createdTx: l.txHash,
      });
    }
  }
  await readTokenFacts(rpc, tokens, launchpads.size > 0);
  for (const t of tokens) state.addToken({ address: t.address, decimals: t.decimals, createdBlock: t.createdBlock });

  for (const l of logs) {
    if (l.kind !== "pairCreated" || !factories.has(l.address) || state.pools.has(l.pair)) continue;
    if (!state.wantsPool(l.token0, l.token1)) continue;
    const pool = { address: l.pair, factory: l.address, dex: factories.get(l.address)!, token0: l.token0, token1: l.token1, createdBlock: l.block };
    pools.push(pool);
    state.addPool({ ...pool, reserve0: 0n, reserve1: 0n });
  }
  return { tokens, pools };
}

/**
 * Decimals of every new token; for tokens found through a pair (created before the indexer saw
 * them) also name, symbol and the supply just before discovery, the base later mints add to.
 */
async function readTokenFacts(rpc: Rpc, tokens: NewToken[], launched: boolean) {
  if (tokens.length === 0) return;
  const fns: Erc20Read[] = launched ? ["decimals"] : ["decimals", "name", "symbol", "totalSupply"];
  const reads = tokens.flatMap((t) =>
    fns.map((fn) => ({ token: t.address, fn, block: fn === "totalSupply" ? Math.max(t.createdBlock - 1, 0) : t.createdBlock })),
  );
  const values = await readErc20(rpc, reads);
  tokens.forEach((t, i) => {
    const [decimals, name, symbol, supply] = values.slice(i * fns.length, (i + 1) * fns.length);
    if (typeof decimals === "number") t.decimals = decimals;
    if (typeof name === "string") t.name = name;
    if (typeof symbol === "string") t.symbol = symbol;
    if (typeof supply === "bigint") t.supplyBase = supply;
  });
}
