import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { toQuery } from "@/db/client";
import { aliasColumns } from "./bulk";
import { tokens } from "./schema";
import { statement } from "./statement";

const t = aliasColumns(tokens, "t");

/** The token statement as it would be built on each call, with a constant parameter between the two named ones. */
const direct = (address: string, limit: number, shape: "" | "after") =>
  sql`select ${t.address}, ${t.symbol} from ${tokens} t
       where ${t.address} = ${address} and ${t.decimals} < ${18}
       ${shape === "after" ? sql`and ${t.createdBlock} > ${limit}` : sql``} limit ${limit}`;

const rendered = statement<"address" | "limit", "" | "after">(
  (v, shape) => sql`select ${t.address}, ${t.symbol} from ${tokens} t
       where ${t.address} = ${v.address} and ${t.decimals} < ${18}
       ${shape === "after" ? sql`and ${t.createdBlock} > ${v.limit}` : sql``} limit ${v.limit}`,
);

describe("statement", () => {
  it("renders the same text and parameters as the template built on each call, in every shape", () => {
    for (const shape of ["", "after"] as const) {
      for (const [address, limit] of [
        ["0xaa", 10],
        ["0xbb", 3],
      ] as const) {
        expect(toQuery(rendered({ address, limit }, shape))).toEqual(toQuery(direct(address, limit, shape)));
      }
    }
  });

  it("nests in another statement, its parameters numbered after the outer ones", () => {
    const outer = (inner: ReturnType<typeof rendered>) => sql`select ${1} as one, x.* from (${inner}) x`;
    expect(toQuery(outer(rendered({ address: "0xaa", limit: 5 })))).toEqual(toQuery(outer(direct("0xaa", 5, ""))));
  });

  it("puts a value that is SQL in its placeholder's place, parameters and all", () => {
    const wrapped = statement<"inner" | "n">((v) => sql`select ${v.n} as n, x.* from (${v.inner}) x where ${v.n} > 0`);
    const inner = rendered({ address: "0xaa", limit: 5 });
    expect(toQuery(wrapped({ inner, n: 7 }))).toEqual(
      toQuery(sql`select ${7} as n, x.* from (${direct("0xaa", 5, "")}) x where ${7} > 0`),
    );
  });

  it("refuses a value it is not given", () => {
    expect(() => rendered({ address: "0xaa" } as never)).toThrow(/limit/);
  });

  it("refuses a $n in the text that is not a parameter", () => {
    const dollars = statement<"x">((v) => sql`select '$1' as literal, ${v.x} as x`);
    expect(() => dollars({ x: 1 })).toThrow(/not a parameter/);
  });
});
