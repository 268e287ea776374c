import { pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { createdAt } from "./columns";
import { plans } from "./plans";

export const PLANS = ["free", "pro", "api_tier"] as const;
export type Plan = (typeof PLANS)[number];

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
