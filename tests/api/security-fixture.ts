import postgres from "postgres";
import { inject } from "vitest";
import { HONEYPOT_REPORT, storeSecurity } from "@/tests/setup/security-reports";

/** The fixture's token with the highest address, with the honeypot's checks stored (security-reports.ts). */
export async function storeCheckedToken() {
  const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
  try {
    const [{ token }] = await sql<{ token: string }[]>`
      select address as token from tokens t
       where exists (select 1 from pools p where p.token0 = t.address or p.token1 = t.address)
       order by address desc limit 1`;
    return await storeSecurity(sql, token, HONEYPOT_REPORT);
  } finally {
    await sql.end();
  }
}
