import { addressSchema } from "./schemas/common";

/** A page's address segment as the API reads it (any case, lowercased), or null if malformed. */
export function addressParam(value: string): string | null {
  const parsed = addressSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
