import type { z } from "zod";
import type { Db } from "@/db/client";
import { updateAlert } from "@/lib/alerts/service";
import { type AlertOwner, findOwnedAlert } from "@/lib/queries/alerts";
import { definitionOf, type updateAlertBody } from "./schemas/alerts";

/**
 * PATCH /v1/alerts/{id} and the dashboard's edit: conditions are read as the body's kind, else
 * as the alert's own (so an alert of any kind is edited without naming it, and a body without
 * a kind stays a token filter's change on a token alert, as in the spec).
 */
export async function patchAlert(db: Db, owner: AlertOwner, id: string, body: z.output<typeof updateAlertBody>) {
  const { kind, conditions, ...rest } = body;
  if (conditions === undefined) return updateAlert(db, owner, id, rest);
  const as = kind ?? (await findOwnedAlert(db, owner, id)).kind;
  return updateAlert(db, owner, id, { ...rest, ...definitionOf(as, conditions) });
}
