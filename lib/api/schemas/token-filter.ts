import { z } from "zod";
import {
  NUMERIC_FILTERS,
  type NumericFilterName,
  type TokenFilter,
  tokenFilterConflict,
} from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { numberParam } from "./common";

/** The token filter's two wire forms, both from its one declaration (lib/domain/token-filter.ts). */

const numericFilters = Object.entries(NUMERIC_FILTERS) as [
  NumericFilterName,
  (typeof NUMERIC_FILTERS)[NumericFilterName],
][];
const flagsDescription = `Risk flags to exclude: ${RISK_FLAGS.join(", ")}`;

export function refineTokenFilter(f: TokenFilter, ctx: z.RefinementCtx) {
  const conflict = tokenFilterConflict(f);
  if (conflict) ctx.addIssue({ code: "custom", path: [conflict.param], message: conflict.message });
}

/** Query-string form (GET /v1/tokens): numbers as decimal strings, exclude_flags comma-separated. */
export const tokenFilterQueryShape = {
  ...(Object.fromEntries(
    numericFilters.map(([name, f]) => [name, numberParam(f.range[0], f.range[1], f.description).optional()]),
  ) as Record<NumericFilterName, z.ZodOptional<ReturnType<typeof numberParam>>>),
  exclude_flags: z
    .string()
    .transform((s) => s.split(","))
    .pipe(z.array(z.enum(RISK_FLAGS, { error: `each flag must be one of ${RISK_FLAGS.join(", ")}` })))
    .optional()
    .meta({ description: `${flagsDescription}, comma-separated` }),
};

/** JSON-body form (alert conditions): numbers as numbers, exclude_flags as an array; at least one field. */
export const tokenFilterBodySchema = z
  .strictObject({
    ...(Object.fromEntries(
      numericFilters.map(([name, f]) => [
        name,
        z.number().min(f.range[0]).max(f.range[1]).optional().meta({ description: f.description }),
      ]),
    ) as Record<NumericFilterName, z.ZodOptional<z.ZodNumber>>),
    exclude_flags: z.array(z.enum(RISK_FLAGS)).min(1).optional().meta({ description: flagsDescription }),
  })
  .superRefine(refineTokenFilter)
  .refine((f) => Object.values(f).some((v) => v !== undefined), {
    message: "must contain at least one filter field",
  })
  .meta({ id: "AlertConditions" });
