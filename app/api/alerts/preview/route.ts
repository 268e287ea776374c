import { z } from "zod";
import { getDb } from "@/db/client";
import { previewAlert } from "@/lib/alerts/preview";
import { requireKind } from "@/lib/alerts/service";
import { parseBody } from "@/lib/api/params";
import {
  priceConditionsSchema,
  smartMoneyConditionsSchema,
  walletConditionsSchema,
} from "@/lib/api/schemas/alert-conditions";
import { withMeteredAccount } from "@/lib/auth/route";
import { planOfAccount } from "@/lib/queries/plans";

/** An alert of a kind the builder previews over the last day (a token filter's preview is GET /api/tokens). */
const previewBody = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("wallet"), conditions: walletConditionsSchema }),
    z.strictObject({ kind: z.literal("price"), conditions: priceConditionsSchema }),
    z.strictObject({ kind: z.literal("smart_money"), conditions: smartMoneyConditionsSchema }),
  ],
  { error: (issue) => (issue.code === "invalid_union" ? "must be one of wallet, price, smart_money" : undefined) },
);

/**
 * What the alert would have fired over the last 24 h of chain time (lib/alerts/preview.ts); a
 * POST for its JSON body, metered like the dashboard's other reads, behind the kind's plan gate.
 */
export const POST = withMeteredAccount(async (req, { account }) => {
  const definition = await parseBody(req, previewBody);
  const db = getDb();
  requireKind(await planOfAccount(db, account.id), definition.kind);
  return previewAlert(db, definition);
});
