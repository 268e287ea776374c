import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Sql } from "@/db/client";
import { mulberry32 } from "@/lib/random";
import { createTestDatabase, type TestDatabase } from "../test/db";
import { addDecimal, decimalText, float8Numeric, ZERO_DECIMAL } from "./float-numeric";

let db: TestDatabase;
let sql: Sql;

/** USD amounts as the worker computes them, and the values where a conversion goes wrong first. */
function values(): number[] {
  const random = mulberry32(7);
  const edges = [
    0,
    1,
    -1,
    0.1,
    0.1 + 0.2,
    2.5,
    1e-5,
    1.5e-5,
    1.5e20,
    1e21,
    123.456,
    1234567890123.125,
    1234567890123.135,
    999999999999999.9,
    9.999999999999998,
    5e-324,
    2 ** -1074 * 3,
    Number.MAX_SAFE_INTEGER,
    1.7976931348623157e308,
  ];
  const drawn = Array.from({ length: 2_000 }, (_, i) => {
    const magnitude = 10 ** Math.floor(random() * 24 - 10);
    return (random() * magnitude * (i % 7 === 0 ? -1 : 1)) / (1 + (i % 3));
  });
  return [...edges, ...drawn];
}

describe("float8 sums as PostgreSQL's numeric makes them", () => {
  beforeAll(async () => {
    db = await createTestDatabase("float_numeric");
    sql = connect(db.url, { max: 1 });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it("converts each float8 to the numeric PostgreSQL gives, digits and scale", async () => {
    const xs = values();
    const rows = await sql<
      { t: string }[]
    >`select x::numeric::text as t from unnest(${xs}::float8[]) with ordinality u(x, n) order by n`;
    expect(xs.map((x) => decimalText(float8Numeric(x)))).toEqual(rows.map((r) => r.t));
  });

  it("sums them exactly at the larger scale, as sum(x::numeric) does", async () => {
    const xs = values().filter((x) => Math.abs(x) < 1e30);
    for (const part of [xs.slice(0, 3), xs.slice(0, 500), xs]) {
      const [{ t }] = await sql<{ t: string }[]>`select sum(x::numeric)::text as t from unnest(${part}::float8[]) u(x)`;
      expect(decimalText(part.reduce((s, x) => addDecimal(s, float8Numeric(x)), ZERO_DECIMAL))).toBe(t);
    }
  });
});
