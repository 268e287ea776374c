import { describe, expect, it } from "vitest";
import { literalTables, literalTablesIn, schemaTables } from "./sql-tables";

/** The folders whose SQL names tables through the schema's objects only (scripts/sql-tables.ts). */
const TYPED_SQL_FOLDERS = ["lib", "app"];

describe("SQL names tables through the schema", () => {
  it("names no table of the schema literally in lib/ or app/", () => {
    expect(literalTables(process.cwd(), TYPED_SQL_FOLDERS)).toEqual([]);
  });

  it("reads the table names from the schema", () => {
    expect(schemaTables()).toEqual(expect.arrayContaining(["tokens", "events", "sync_state"]));
  });

  it("finds a literal table in SQL and leaves comments, strings and typed SQL alone", () => {
    const source = `// rows come from tokens
const description = "how early the wallet gets into tokens";
const typed = sql\`select 1 from \${tokens} t where t.address = \${a}\`;
/* update tokens */ const literal = sql\`select t.symbol
  from tokens t left join token_metrics m on m.address = t.address where \${x}\`;
const tail = sql\`select \${a} from events_archive, \${b} from (select 1 from sync_state)\`;`;
    expect(literalTablesIn("lib/q.ts", source, ["tokens", "token_metrics", "events", "sync_state"])).toEqual([
      "lib/q.ts:5: from tokens",
      "lib/q.ts:5: join token_metrics",
      "lib/q.ts:6: from sync_state",
    ]);
  });
});
