import { runMigrations } from "@/db/migrate";

await runMigrations();
console.log("migrations applied");
