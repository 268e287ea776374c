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

/**
 * `cursor=`: a list's next_cursor, handed back to read the page after it (not with `page`). The
 * form is checked here; what it holds, by the list (lib/queries/cursor.ts).
 */
export const cursorParam = z
  .string()
  .max(512, "is not a cursor")
  .regex(/^[A-Za-z0-9_-]+$/, "is not a cursor")
  .optional()
  .meta({
    description:
      "Where to continue a walk of the list: the next_cursor of the previous page, as returned (instead of page). " +
      "A walk with cursors lists each row once while the data changes: rows arriving or leaving before it do not " +
      "shift its pages",
  });

/** An ISO 8601 time (or date) in a query string, as a Date. */
export const timeParam = (description: string) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: "must be an ISO 8601 timestamp" })
    .transform((s) => new Date(s))
    .meta({ description, format: "date-time" });

export const timestampSchema = z.string().meta({ description: "ISO 8601 timestamp in UTC", format: "date-time" });

const envelopeShape = <T extends z.ZodType>(item: T) => ({
  data: z.array(item).meta({ description: "The items of the requested page" }),
  total: z.number().int().meta({ description: "Exact number of matching items" }),
  page: z
    .number()
    .int()
    .meta({ description: "Page number returned (with a cursor: the number of the page in the walk)" }),
  limit: z.number().int().meta({ description: "Page size used" }),
});

export const listEnvelope = <T extends z.ZodType>(item: T, id: string) => z.object(envelopeShape(item)).meta({ id });

/** A list envelope with the cursor of the page after it (lists that take `cursor=`). */
export const cursorListEnvelope = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      ...envelopeShape(item),
      next_cursor: z.string().nullable().meta({
        description: "Pass as cursor= to read the next page; null on the last page. Opaque: its contents may change",
      }),
    })
    .meta({ id });

/** For routes that take no query parameters: any parameter is an error. */
export const emptyQuery = z.object({});
