import { z } from "zod";

/**
 * Control characters (NUL, tabs, newlines, escapes) and the bidirectional overrides that make
 * text read other than it is (U+061C, U+200E-F, U+202A-E, U+2066-9).
 */
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A name a person gives something (an alert, a key): trimmed, 1 to `max` characters, printable. */
export const labelSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "is required")
    .max(max)
    .refine((s) => !UNPRINTABLE.test(s), "must not contain control or bidirectional-override characters");
