import { describe, expect, it } from "vitest";
import { NO_EVIDENCE_REPUTATION, REPUTATION_NO_EVIDENCE, RISK_NO_EVIDENCE, withNoEvidence } from "./no-evidence";
import { SEVERE_DIMENSION } from "./weights";

describe("no-evidence values", () => {
  it("fill only the dimensions without data, a measured 0 kept", () => {
    const measured = { win_rate: 0, entry_timing_score: null, consistency_score: null, risk_drawdown_score: 12.5 };
    expect(withNoEvidence(measured, REPUTATION_NO_EVIDENCE)).toEqual({
      win_rate: 0,
      entry_timing_score: 50,
      consistency_score: 50,
      risk_drawdown_score: 12.5,
    });
  });

  it("read as nothing found against a token, below every severe floor", () => {
    for (const [k, floor] of Object.entries(SEVERE_DIMENSION.from))
      expect(RISK_NO_EVIDENCE[k as keyof typeof RISK_NO_EVIDENCE]).toBeLessThan(floor);
    expect(Object.values(RISK_NO_EVIDENCE)).toEqual([0, 0, 0, 0]);
  });

  it("read as neither a good nor a bad record: the middle, the win rate's a fraction", () => {
    expect(REPUTATION_NO_EVIDENCE).toEqual({
      win_rate: 0.5,
      entry_timing_score: 50,
      consistency_score: 50,
      risk_drawdown_score: 50,
    });
    expect(NO_EVIDENCE_REPUTATION).toBe(50);
  });
});
