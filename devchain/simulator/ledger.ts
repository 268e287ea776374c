/**
 * The simulator's exact mirror of the chain state it touches: ether, ERC-20 balances (launch
 * tokens, WETH, USD, LP shares), total supplies and nonces. A pair's reserves are its token balances
 * (the simulator never sends tokens to a pair outside a swap or a mint, and makes a pair that an
 * outside transaction sent tokens to sync them). Transactions are computed against this mirror
 * before they are sent, so the simulator never waits for a receipt; what outside transactions do is
 * read back from the chain and adopted (outside-effects.ts).
 */
import type { Address } from "viem";

export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as Address;

/** A fee-on-transfer token's cut of one transfer, as its code takes it: burnt (no sink) or paid to a
 * sink, in a Transfer log of its own; null when the transfer pays none. */
export type TransferFee = (from: Address, to: Address, value: bigint) => { cut: bigint; sink: Address | null } | null;

export interface PairInfo {
  address: Address;
  token0: Address;
  token1: Address;
}

export class Ledger {
  private readonly eth = new Map<Address, bigint>();
  /** Ether each account received in the block being built. */
  private receivedThisBlock = new Map<Address, bigint>();
  private readonly balances = new Map<Address, Map<Address, bigint>>();
  private readonly supplies = new Map<Address, bigint>();
  private readonly nonces = new Map<Address, number>();
  private readonly pairs = new Map<string, PairInfo>();
  private readonly pairsByAddress = new Map<Address, PairInfo>();
  /** Tokens each holder has a non-zero balance of, for choosing what to sell. */
  private readonly holdings = new Map<Address, Set<Address>>();
  private readonly fees = new Map<Address, TransferFee>();

  ethOf(holder: Address): bigint {
    return this.eth.get(holder) ?? 0n;
  }

  setEth(holder: Address, value: bigint): void {
    if (value < 0n) throw new Error(`ledger: negative ether for ${holder}`);
    this.eth.set(holder, value);
  }

  moveEth(from: Address, to: Address, value: bigint): void {
    this.setEth(from, this.ethOf(from) - value);
    this.setEth(to, this.ethOf(to) + value);
    this.receivedThisBlock.set(to, (this.receivedThisBlock.get(to) ?? 0n) + value);
  }

  startBlock(): void {
    this.receivedThisBlock = new Map();
  }

  /** Ether `holder` can send now. The node checks a transaction's value against the account as it
   * was when the block began (minus what it already sends), so ether received in the same block,
   * say from a sale, can only be spent from the next block on. */
  availableEth(holder: Address): bigint {
    return this.ethOf(holder) - (this.receivedThisBlock.get(holder) ?? 0n);
  }

  balanceOf(token: Address, holder: Address): bigint {
    return this.balances.get(token)?.get(holder) ?? 0n;
  }

  supplyOf(token: Address): bigint {
    return this.supplies.get(token) ?? 0n;
  }

  /** Whether the mirror follows this token's balances. */
  tracks(token: Address): boolean {
    return this.supplies.has(token);
  }

  /** A balance read from the chain. */
  adoptBalance(token: Address, holder: Address, value: bigint): void {
    this.setBalance(token, holder, value);
  }

  /** A total supply read from the chain. */
  adoptSupply(token: Address, value: bigint): void {
    this.supplies.set(token, value);
  }

  /** Every account that has held the token, with its balance now (zero included). */
  holdersOf(token: Address): ReadonlyMap<Address, bigint> {
    return this.balances.get(token) ?? new Map();
  }

  tokensHeldBy(holder: Address): ReadonlySet<Address> {
    return this.holdings.get(holder) ?? new Set();
  }

  /** Makes transfers of `token` take its cut, as its code does. */
  setTransferFee(token: Address, fee: TransferFee): void {
    this.fees.set(token, fee);
  }

  /** The cut a transfer of `token` would take. */
  feeOf(token: Address, from: Address, to: Address, value: bigint): ReturnType<TransferFee> {
    return this.fees.get(token)?.(from, to, value) ?? null;
  }

  /** Moves `value` from `from`, less a fee-on-transfer token's cut; returns what reached `to`. */
  transfer(token: Address, from: Address, to: Address, value: bigint): bigint {
    const fee = this.feeOf(token, from, to, value);
    if (fee?.sink) this.move(token, from, fee.sink, fee.cut);
    else if (fee) this.burn(token, from, fee.cut);
    const rest = value - (fee?.cut ?? 0n);
    this.move(token, from, to, rest);
    return rest;
  }

  private move(token: Address, from: Address, to: Address, value: bigint): void {
    this.setBalance(token, from, this.balanceOf(token, from) - value);
    this.setBalance(token, to, this.balanceOf(token, to) + value);
  }

  /** Creates tokens, as `_mint` does: `to` may be the zero address (locked LP shares). */
  mint(token: Address, to: Address, value: bigint): void {
    this.supplies.set(token, this.supplyOf(token) + value);
    this.setBalance(token, to, this.balanceOf(token, to) + value);
  }

  burn(token: Address, from: Address, value: bigint): void {
    this.setBalance(token, from, this.balanceOf(token, from) - value);
    this.supplies.set(token, this.supplyOf(token) - value);
  }

  nextNonce(sender: Address): number {
    const n = this.nonces.get(sender) ?? 0;
    this.nonces.set(sender, n + 1);
    return n;
  }

  setNonce(sender: Address, nonce: number): void {
    this.nonces.set(sender, nonce);
  }

  addPair(pair: PairInfo): void {
    this.pairs.set(pairKey(pair.token0, pair.token1), pair);
    this.pairsByAddress.set(pair.address, pair);
  }

  pairAt(address: Address): PairInfo | undefined {
    return this.pairsByAddress.get(address);
  }

  /** A pair's reserves as (reserve0, reserve1). */
  reservesAt(pair: Address): [bigint, bigint] {
    const info = this.pairsByAddress.get(pair);
    if (!info) throw new Error(`ledger: unknown pair ${pair}`);
    return [this.balanceOf(info.token0, pair), this.balanceOf(info.token1, pair)];
  }

  pairOf(tokenA: Address, tokenB: Address): PairInfo {
    const pair = this.pairs.get(pairKey(tokenA, tokenB));
    if (!pair) throw new Error(`ledger: no pair for ${tokenA}/${tokenB}`);
    return pair;
  }

  /** Reserves of `pair` ordered as (tokenIn, tokenOut). */
  reserves(pair: PairInfo, tokenIn: Address): [bigint, bigint] {
    const tokenOut = tokenIn === pair.token0 ? pair.token1 : pair.token0;
    return [this.balanceOf(tokenIn, pair.address), this.balanceOf(tokenOut, pair.address)];
  }

  private setBalance(token: Address, holder: Address, value: bigint): void {
    if (value < 0n) throw new Error(`ledger: negative ${token} balance for ${holder}`);
    let byHolder = this.balances.get(token);
    if (!byHolder) this.balances.set(token, (byHolder = new Map()));
    byHolder.set(holder, value);
    let held = this.holdings.get(holder);
    if (!held) this.holdings.set(holder, (held = new Set()));
    if (value > 0n) held.add(token);
    else held.delete(token);
  }
}

function pairKey(a: Address, b: Address): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}
