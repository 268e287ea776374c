/**
 * Adopts into the simulator's mirror what outside transactions did, read back from the chain at the block they were
 * mined in, before the simulator computes the next block. Our tokens and pairs are honest contracts, so their logs name
 * every balance that moved (WETH9's Deposit and Withdrawal included): the balances, supplies and pair reserves they
 * name, the senders' and recipients' ether and nonces, and the launchpads' nonces are read again; pairs they created
 * through the factory are noted (one may block a launchpad). What an outside transaction cannot show in a log (ether a
 * contract pays to a simulated wallet) only leaves the mirror short, never spending what is not there.
 */
import { type Address, decodeAbiParameters, encodeFunctionData, type Hex, parseAbi, toEventSelector } from "viem";
import { lower, toQuantity } from "../encoding";
import type { RpcClient } from "../rpc";
import type { Market } from "./market";

interface Receipt {
  from: Address;
  to: Address | null;
  logs: { address: Address; topics: Hex[] }[];
}

const TRANSFER = toEventSelector("Transfer(address,address,uint256)");
const APPROVAL = toEventSelector("Approval(address,address,uint256)");
/** WETH9 logs no Transfer when it wraps or unwraps. */
const DEPOSIT = toEventSelector("Deposit(address,uint256)");
const WITHDRAWAL = toEventSelector("Withdrawal(address,uint256)");
const PAIR_CREATED = toEventSelector("PairCreated(address,address,address,uint256)");
const abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function getReserves() view returns (uint112, uint112, uint32)",
]);

const topicAddress = (topic: Hex) => lower(`0x${topic.slice(26)}`);

/** Returns the pairs whose state it read: their reserves are the chain's now, whatever the ledger
 * expected before. */
export async function adoptOutsideEffects(
  rpc: RpcClient,
  market: Market,
  hashes: Hex[],
  block: number,
): Promise<Set<Address>> {
  const { ledger } = market;
  const receipts = (await rpc.batch(
    hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })),
  )) as Receipt[];
  const accounts = new Set<Address>();
  const holders = new Map<Address, Set<Address>>();
  const pairs = new Set<Address>();
  const hold = (token: Address, holder: Address) => {
    if (!holders.has(token)) holders.set(token, new Set());
    holders.get(token)!.add(holder);
    if (ledger.pairAt(holder)) pairs.add(holder);
  };
  for (const r of receipts) {
    accounts.add(lower(r.from));
    if (r.to) accounts.add(lower(r.to));
    for (const log of r.logs) {
      const address = lower(log.address);
      const [topic, a, b] = log.topics;
      if (address === market.deployment.factory && topic === PAIR_CREATED)
        market.notePairCreated(topicAddress(a), topicAddress(b));
      if (ledger.pairAt(address)) pairs.add(address);
      if (!ledger.tracks(address)) continue;
      accounts.add(address); // WETH holds the ether behind it
      if (topic === TRANSFER) {
        hold(address, topicAddress(a));
        hold(address, topicAddress(b));
      } else if (topic === DEPOSIT || topic === WITHDRAWAL) {
        hold(address, topicAddress(a));
      } else if (topic === APPROVAL) {
        market.forgetApproval(topicAddress(a), address, topicAddress(b));
      }
    }
  }
  for (const pair of pairs) {
    const { token0, token1 } = ledger.pairAt(pair)!;
    hold(token0, pair);
    hold(token1, pair);
  }

  const at = toQuantity(block);
  const view = (to: Address, functionName: "balanceOf" | "totalSupply" | "getReserves", args: Address[] = []) => ({
    method: "eth_call",
    params: [{ to, data: encodeFunctionData({ abi, functionName, args } as never) }, at],
  });
  const accountList = [...accounts];
  const balanceList = [...holders].flatMap(([token, set]) => [...set].map((holder) => [token, holder] as const));
  const tokenList = [...holders.keys()];
  const pairList = [...pairs];
  const launchpads = market.deployment.launchpads.map((l) => l.address);
  const results = (await rpc.batch([
    ...accountList.flatMap((a) => [
      { method: "eth_getBalance", params: [a, at] },
      { method: "eth_getTransactionCount", params: [a, at] },
    ]),
    ...balanceList.map(([token, holder]) => view(token, "balanceOf", [holder])),
    ...tokenList.map((token) => view(token, "totalSupply")),
    ...pairList.map((pair) => view(pair, "getReserves")),
    ...launchpads.map((l) => ({ method: "eth_getTransactionCount", params: [l, at] })),
  ])) as Hex[];

  let i = 0;
  for (const a of accountList) {
    ledger.setEth(a, BigInt(results[i++]));
    ledger.setNonce(a, Number(results[i++]));
  }
  for (const [token, holder] of balanceList) ledger.adoptBalance(token, holder, BigInt(results[i++]));
  for (const token of tokenList) ledger.adoptSupply(token, BigInt(results[i++]));
  for (const pair of pairList) {
    const [reserve0, reserve1] = decodeAbiParameters([{ type: "uint112" }, { type: "uint112" }], results[i++]);
    const [balance0, balance1] = ledger.reservesAt(pair);
    if (reserve0 !== balance0 || reserve1 !== balance1) market.syncReserves(pair);
  }
  for (const l of launchpads) market.adoptLaunchpadNonce(l, Number(results[i++]));
  return pairs;
}
