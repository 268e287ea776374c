import { z } from "zod";

/** Building blocks of the query-string schemas; every rule about a parameter's form lives here. */

const DECIMAL = /^-?\d+(\.\d+)?$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const numberParam = (min: number, max: number, description: string) =>
  z
    .string()
    .regex(DECIMAL, "must be a decimal number")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({ description });

export const intParam = (min: number, max: number, description: string) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({ description });

export const addressSchema = z
  .string()
  .regex(ADDRESS, "must be 0x followed by 40 hex characters")
  .transform((a) => a.toLowerCase())
  .meta({ description: "EVM address, any case; returned lowercase", example: `0x${"ab".repeat(20)}` });

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;

export const paginationQuery = {
  page: intParam(1, 1_000_000, "Page number, from 1").default(1),
  limit: intParam(1, MAX_LIMIT, `Page size, 1 to ${MAX_LIMIT}`).default(DEFAULT_LIMIT),
};

/** An ISO 8601 time (or date) in a query string, as a Date. */
export const timeParam = (description: string) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: "must be an ISO 8601 timestamp" })
    .transform((s) => new Date(s))
    .meta({ description, format: "date-time" });

export const timestampSchema = z.string().meta({ description: "ISO 8601 timestamp in UTC", format: "date-time" });

export const listEnvelope = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item).meta({ description: "The items of the requested page" }),
      total: z.number().int().meta({ description: "Exact number of matching items" }),
      page: z.number().int().meta({ description: "Page number returned" }),
      limit: z.number().int().meta({ description: "Page size used" }),
    })
    .meta({ id });

/** For routes that take no query parameters: any parameter is an error. */
export const emptyQuery = z.object({});
