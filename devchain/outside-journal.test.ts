/** The journal of outside transactions: appended with its header once, read back by block, and set
 * aside (never deleted) when it belongs to another chain or cannot be read. */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Journal, journalFile, type OutsideTx, readJournal } from "./outside-journal";

const chain = { chainId: 31337, genesisHash: "0xaa" as const };
const entry = (block: number, index: number, n: number): OutsideTx => ({
  hash: `0x${n.toString(16).padStart(64, "0")}`,
  block,
  index,
  raw: "0x01",
});

describe("outside transactions journal", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const fresh = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "devchain-journal-"));
    dirs.push(dir);
    return journalFile(dir);
  };

  it("appends after one header and reads back by block, in block order", () => {
    const file = fresh();
    const { journal, notices } = Journal.open(file, chain);
    expect(notices).toEqual([]);
    journal.append([entry(12, 3, 1), entry(12, 2, 2)]);
    journal.append([entry(15, 0, 3)]);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(4);
    const reopened = Journal.open(file, chain).journal;
    expect(reopened.blocks()).toEqual([12, 15]);
    expect(reopened.inBlock(12).map((e) => e.index)).toEqual([2, 3]);
    expect(readJournal(file).header).toMatchObject({ version: 1, ...chain });
  });

  it("sets aside the journal of another chain, or one it cannot read, and starts anew", () => {
    const file = fresh();
    Journal.open(file, chain).journal.append([entry(12, 0, 1)]);
    const other = Journal.open(file, { ...chain, genesisHash: "0xbb" });
    expect(other.notices).toEqual([
      expect.stringMatching(/not replayed: it belongs to another chain \(genesis 0xaa\); moved to .+set-aside-/),
    ]);
    expect(other.journal.entries).toEqual([]);
    const aside = readdirSync(path.dirname(file)).filter((f) => f.includes("set-aside"));
    expect(aside).toHaveLength(1);
    expect(readJournal(path.join(path.dirname(file), aside[0])).entries).toEqual([entry(12, 0, 1)]);

    const broken = fresh();
    Journal.open(broken, chain).journal.append([entry(12, 0, 1)]);
    appendFileSync(broken, "{not json\n");
    const reopened = Journal.open(broken, chain);
    expect(reopened.notices).toEqual([expect.stringContaining("outside-txs.jsonl:3: not JSON")]);
    expect(reopened.journal.entries).toEqual([]);
  });
});
