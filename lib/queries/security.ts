import { type SQLWrapper, sql } from "drizzle-orm";
import type { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { tokenSecurity, tokens } from "@/db/schema";
import { statement } from "@/db/statement";
import type { tokenSecurity as tokenSecurityBody } from "@/lib/api/schemas/security";
import type { SecurityReport } from "@/lib/domain/security";
import { iso } from "./format";

export type TokenSecurity = z.infer<typeof tokenSecurityBody>;

/** A token's stored checks (worker/security), null before the first; timestamps as text (the driver's). */
export type SecurityRow = {
  security_report: SecurityReport | null;
  security_block: number | null;
  security_checked_at: string | null;
};

const sec = aliasColumns(tokenSecurity, "sec");

/** The columns of SecurityRow, from the row securityJoin joins. */
export const securityColumns = sql`${sec.report} as security_report, ${sec.block}::float8 as security_block,
  ${sec.checkedAt}::text as security_checked_at`;

/** The stored checks of the token whose address is `token` (an SQL expression), for securityColumns. */
export const securityJoin = (token: SQLWrapper) =>
  sql`left join ${tokenSecurity} sec on ${sec.tokenAddress} = ${token}`;

const NOT_YET = { status: "unknown", reason: "not checked yet" } as const;

/** The checks as the API serves them: each with its block and time; all unknown before the first run. */
export function toSecurity(address: string, row: SecurityRow): TokenSecurity {
  const r = row.security_report;
  if (!r || row.security_block === null || row.security_checked_at === null)
    return {
      token_address: address,
      honeypot: "unknown",
      trade: { ...NOT_YET, honeypot: "unknown" },
      owner: NOT_YET,
      code: NOT_YET,
      liquidity: NOT_YET,
    };
  const when = { checked_at: iso(new Date(row.security_checked_at)), block: row.security_block };
  return {
    token_address: address,
    honeypot: r.trade.honeypot,
    trade: { ...r.trade, ...when },
    owner: { ...r.owner, ...when },
    code: { ...r.code, ...when },
    liquidity: { ...r.liquidity, ...when },
  };
}

const t = aliasColumns(tokens, "t");

const tokenSecuritySql = statement<"address">(
  (v) => sql`select ${t.address}, ${securityColumns}
               from ${tokens} t ${securityJoin(t.address)}
              where ${t.address} = ${v.address}`,
);

/** GET /v1/tokens/{address}/security: the token's row (none when not indexed) with its checks. */
export const tokenSecurityRead = (address: string) => ({
  first: tokenSecuritySql({ address }),
  answer: (row: SecurityRow & { address: string }): TokenSecurity => toSecurity(row.address, row),
});
