import { readFileSync } from "node:fs";
import { encodeFunctionData, type Hex, parseAbi } from "viem";
import { describe, expect, it } from "vitest";
import { honeypotOf } from "@/lib/domain/security";
import { capabilitiesOf, cloneTarget, pushedSelectors } from "./bytecode";
import { CODE_FILE, codeFileText, compileProbe } from "./compile-probe";

describe("security checks: pure parts", () => {
  it("keeps the trade probe's code current with its source", async () => {
    expect(readFileSync(CODE_FILE, "utf8")).toBe(codeFileText(await compileProbe()));
  }, 120_000);

  it("reads pushed selectors as instructions, skipping push data", () => {
    const mint = encodeFunctionData({
      abi: parseAbi(["function mint(address,uint256)"]),
      functionName: "mint",
      args: ["0x0000000000000000000000000000000000000001", 1n],
    }).slice(0, 10);
    // PUSH4 <mint> EQ, then a PUSH32 whose data holds the setFee selector: not an instruction.
    const code = (`0x63${mint.slice(2)}14` + `7f${"69fe0e2d".padEnd(64, "0")}`) as Hex;
    expect(pushedSelectors(code).has(mint)).toBe(true);
    expect(capabilitiesOf([code])).toEqual({
      can_mint: true,
      can_pause: false,
      can_blacklist: false,
      can_change_fees: false,
    });
    // A push cut short by the end of the code is no selector.
    expect(pushedSelectors("0x6340c1").size).toBe(0);
    // PUSH3: a selector with a leading zero byte, as the optimizer writes it.
    expect(pushedSelectors("0x62abcdef").has("0x00abcdef")).toBe(true);
  });

  it("finds an EIP-1167 clone's target", () => {
    const target = "1234567890abcdef1234567890abcdef12345678";
    expect(cloneTarget(`0x363d3d373d3d3d363d73${target}5af43d82803e903d91602b57fd5bf3`)).toBe(`0x${target}`);
    expect(cloneTarget("0x6080")).toBeUndefined();
  });

  it("calls a reverting sell or one returning almost nothing a honeypot", () => {
    expect(honeypotOf(false, undefined)).toEqual({ honeypot: "yes", honeypot_reason: "sell_reverts" });
    expect(honeypotOf(true, 95)).toEqual({ honeypot: "yes", honeypot_reason: "sell_returns_almost_nothing" });
    expect(honeypotOf(true, 5)).toEqual({ honeypot: "no" });
  });
});
