/**
 * Average-cost position of one wallet in one token. `quantity` always equals the wallet's
 * balance: every movement of the token in or out of the wallet goes through one of these methods.
 */
export class Position {
  quantity = 0n;
  /** USD cost of `quantity`; tokens of unknown cost count at zero. */
  costBasisUsd = 0;
  realizedPnlUsd = 0;
  boughtUsd = 0;
  soldUsd = 0;
  unknownCostQuantity = 0n;
  /** USD value, at receipt, of what arrived without a cost: the PnL confidence input. */
  unknownCostValueUsd = 0;
  buyCount = 0;
  sellCount = 0;
  firstBuyBlock: number | null = null;
  firstBuyMs: number | null = null;
  lastTradeBlock: number | null = null;
  /** Largest quantity ever held: "sold most of the peak" for smart-money exits. */
  peakQuantity = 0n;

  buy(qty: bigint, usd: number, block: number, ms: number): void {
    this.quantity += qty;
    this.costBasisUsd += usd;
    this.boughtUsd += usd;
    this.buyCount++;
    this.firstBuyBlock ??= block;
    this.firstBuyMs ??= ms;
    this.lastTradeBlock = block;
    this.notePeak();
  }

  sell(qty: bigint, usd: number, block: number): void {
    const cost = this.removeShare(qty);
    this.realizedPnlUsd += usd - cost;
    this.soldUsd += usd;
    this.sellCount++;
    this.lastTradeBlock = block;
  }

  /** Tokens in without a purchase (transfer, liquidity removal): unknown cost. */
  receive(qty: bigint, valueUsd: number): void {
    this.quantity += qty;
    this.unknownCostQuantity += qty;
    this.unknownCostValueUsd += valueUsd;
    this.notePeak();
  }

  /** Tokens out without a sale (transfer, liquidity add): their cost leaves with them. */
  send(qty: bigint): void {
    this.removeShare(qty);
  }

  /** Removes `qty` pro rata from cost and unknown quantity; returns the cost removed. */
  private removeShare(qty: bigint): number {
    if (qty > this.quantity) throw new Error("position goes negative");
    const share = this.quantity === 0n ? 0 : Number((qty * 1_000_000_000n) / this.quantity) / 1e9;
    const cost = qty === this.quantity ? this.costBasisUsd : this.costBasisUsd * share;
    this.unknownCostQuantity -= qty === this.quantity ? this.unknownCostQuantity : (this.unknownCostQuantity * qty) / this.quantity;
    this.costBasisUsd -= cost;
    this.quantity -= qty;
    return cost;
  }

  private notePeak(): void {
    if (this.quantity > this.peakQuantity) this.peakQuantity = this.quantity;
  }
}
