/**
 * What a contract's code can do, read from its function selectors: the dispatcher compares the
 * call's selector with each function's as a PUSH4 (PUSH3 or less when it starts with zero bytes,
 * as the optimizer writes it). Push data is skipped while walking, so bytes inside other
 * constants are not read as instructions. A selector present is a capability, not a proof of
 * abuse; a capability behind a renounced owner is still reported.
 */
import { type Hex, toFunctionSelector } from "viem";

const sel = (signatures: string[]) => new Set(signatures.map((s) => toFunctionSelector(`function ${s}`)));

/** The common names of each capability's functions on launch tokens. */
const CAPABILITY_SELECTORS = {
  can_mint: sel(["mint(address,uint256)", "mint(uint256)", "mintTo(address,uint256)", "issue(uint256)"]),
  can_pause: sel([
    "pause()",
    "unpause()",
    "setPaused(bool)",
    "setPause(bool)",
    "pauseTrading()",
    "setTradingEnabled(bool)",
  ]),
  can_blacklist: sel([
    "blacklist(address)",
    "addToBlacklist(address)",
    "setBlacklist(address,bool)",
    "setBlacklisted(address,bool)",
    "blacklistAddress(address,bool)",
    "addBot(address)",
    "addBots(address[])",
    "setBots(address[],bool)",
  ]),
  can_change_fees: sel([
    "setFee(uint256)",
    "setFees(uint256,uint256)",
    "setTax(uint256)",
    "setTaxes(uint256,uint256)",
    "setTaxFee(uint256)",
    "setBuyTax(uint256)",
    "setSellTax(uint256)",
    "setBuyFee(uint256)",
    "setSellFee(uint256)",
    "setFeeBps(uint256)",
    "setFeePercent(uint256)",
    "updateFees(uint256,uint256)",
    "updateBuyFees(uint256,uint256,uint256)",
    "updateSellFees(uint256,uint256,uint256)",
  ]),
} as const;

export type Capabilities = Record<keyof typeof CAPABILITY_SELECTORS, boolean>;

const PUSH1 = 0x60;
const PUSH32 = 0x7f;

/** Every 1- to 4-byte constant the code pushes, as a 4-byte selector (left-padded). */
export function pushedSelectors(code: Hex): Set<string> {
  const bytes = Buffer.from(code.slice(2), "hex");
  const out = new Set<string>();
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i];
    if (op < PUSH1 || op > PUSH32) continue;
    const size = op - PUSH1 + 1;
    if (size <= 4 && i + size < bytes.length)
      out.add(
        `0x${bytes
          .subarray(i + 1, i + 1 + size)
          .toString("hex")
          .padStart(8, "0")}`,
      );
    i += size;
  }
  return out;
}

/** The capabilities any of the given codes (a proxy and its implementation) has. */
export function capabilitiesOf(codes: Hex[]): Capabilities {
  const pushed = codes.map(pushedSelectors);
  const has = (selectors: Set<string>) => pushed.some((p) => [...selectors].some((s) => p.has(s)));
  return {
    can_mint: has(CAPABILITY_SELECTORS.can_mint),
    can_pause: has(CAPABILITY_SELECTORS.can_pause),
    can_blacklist: has(CAPABILITY_SELECTORS.can_blacklist),
    can_change_fees: has(CAPABILITY_SELECTORS.can_change_fees),
  };
}

/** EIP-1167 minimal proxy: its runtime code embeds the target address. */
const CLONE = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i;

export function cloneTarget(code: Hex): string | undefined {
  const m = CLONE.exec(code);
  return m ? `0x${m[1].toLowerCase()}` : undefined;
}
