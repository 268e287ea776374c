import { pgTable, text } from "drizzle-orm/pg-core";
import type { Plan } from "../../lib/domain/vocab";
import { users } from "./auth";
import { createdAt } from "./columns";
import { plans } from "./plans";

/** The billing account: owns API keys, carries the plan, receives alert email. */
export const accounts = pgTable("accounts", {
  id: text().primaryKey(),
  email: text().unique(),
  name: text(),
  plan: text()
    .$type<Plan>()
    .notNull()
    .default("free")
    .references(() => plans.id),
  userId: text()
    .unique()
    .references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});
