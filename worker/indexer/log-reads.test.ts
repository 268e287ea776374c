import { describe, expect, it } from "vitest";
import { LogReads } from "./log-reads";

/** 2,000 blocks holding 20,000 logs of ours: the shape a backfill range aims at. */
const [FROM, TO, OURS] = [1, 2_000, 20_000];

describe("LogReads", () => {
  it("reads by address while few addresses are watched, and never probes", () => {
    const reads = new LogReads(1_000);
    for (let i = 0; i < 100; i++) {
      const plan = reads.plan(FROM, TO, 900, OURS);
      expect(plan).toMatchObject({ byTopic: false, probeTo: null });
    }
  });

  it("probes a few blocks by topic, then reads by topic when nearly every log it carries is ours", () => {
    const reads = new LogReads(1_000);
    const first = reads.plan(FROM, TO, 100_000, OURS);
    // 1,000 of the 20,000 logs expected: a twentieth of the range.
    expect(first).toMatchObject({ byTopic: false, probeTo: 100 });
    first.measured(1_000, 990);
    const next = reads.plan(FROM, TO, 100_000, OURS);
    expect(next).toMatchObject({ byTopic: true, probeTo: null });
    next.measured(20_500, 20_000);
    expect(next.read).toBe(20_500);
    expect(reads.plan(FROM, TO, 100_000, OURS).byTopic).toBe(true);
  });

  it("goes back to reading by address once strangers' logs outweigh the requests saved, and probes again later", () => {
    const reads = new LogReads(1_000);
    reads.plan(FROM, TO, 100_000, OURS).measured(1_000, 1_000);
    // 100 requests and 100,000 addresses cost 110,000 logs: a read by topic of 200,000 logs costs more.
    reads.plan(FROM, TO, 100_000, OURS).measured(200_000, 20_000);
    const plans = Array.from({ length: 33 }, () => reads.plan(FROM, TO, 100_000, OURS));
    expect(plans.every((p) => !p.byTopic)).toBe(true);
    expect(plans.slice(0, 32).every((p) => p.probeTo === null)).toBe(true);
    expect(plans[32].probeTo).toBe(100);
  });

  it("keeps probing while a probe finds no log at all", () => {
    const reads = new LogReads(1_000);
    reads.plan(FROM, TO, 100_000, 0).measured(0, 0);
    const plan = reads.plan(FROM, TO, 100_000, 0);
    expect(plan).toMatchObject({ byTopic: false, probeTo: TO });
  });
});
