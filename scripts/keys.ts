import { parseArgs } from "node:util";
import { getDb, getSql } from "@/db/client";
import { ApiError } from "@/lib/api/errors";
import { setContract, setKeyLimits } from "@/lib/billing/contract";
import { changePlan } from "@/lib/billing/plan-change";
import { billingSettings } from "@/lib/billing/settings";
import { DomainError } from "@/lib/domain/errors";
import { PLANS, type Plan } from "@/lib/domain/vocab";
import { accountOfKey, createKey, ensureAccount, listKeys, revokeKey } from "@/lib/keys/store";

const USAGE = `Usage:
  npm run --silent keys -- create --plan free|pro|api_tier [--email E] [--name N] [--json]
  npm run --silent keys -- list [--json]
  npm run --silent keys -- revoke KEY_ID
  npm run --silent keys -- set-plan KEY_ID|ACCOUNT_ID free|pro|api_tier
  npm run --silent keys -- set-limits KEY_ID [--per-minute N|default] [--per-day N|default]   (API Tier keys)
  npm run --silent keys -- set-contract KEY_ID|ACCOUNT_ID --per-minute N --per-day N   (API Tier ceiling per key)
set-plan changes the plan of the account; with Stripe configured, the account's next
subscription event sets it again from Stripe.
Works against DATABASE_URL, or the embedded database while \`npm start\` runs.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function plan(value: string | undefined): Plan {
  if (!value || !(PLANS as readonly string[]).includes(value)) fail(`A plan is required: ${PLANS.join(", ")}.`);
  return value as Plan;
}

/** A positive whole number of requests; `default` (when allowed) is null, the plan's default. */
function limit(option: string, value: string | undefined, allowDefault: boolean): number | null | undefined {
  if (value === undefined) return undefined;
  if (allowDefault && value === "default") return null;
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_000_000_000)
    fail(`--${option} takes a whole number of requests from 1${allowDefault ? ', or "default"' : ""}.`);
  return Number(value);
}

/** An account named by its id, or by the id of one of its keys. */
async function accountOf(id: string | undefined): Promise<string> {
  if (id?.startsWith("acct_")) return id;
  const accountId = id ? await accountOfKey(db, id) : null;
  if (!accountId) fail(`No key ${id ?? ""}.`);
  return accountId;
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plan: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    "per-minute": { type: "string" },
    "per-day": { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command, ...rest] = positionals;
if (values.help || !command) fail("");

const db = getDb();
try {
  switch (command) {
    case "create": {
      const p = plan(values.plan);
      const accountId = await ensureAccount(db, values.email ?? null, p);
      // An existing account keeps its plan unless told otherwise.
      await changePlan(db, accountId, p, new Date());
      const k = await createKey(db, accountId, values.name);
      if (values.json) console.log(JSON.stringify({ key: k.key, id: k.id, plan: p }));
      else console.log(`Created ${p} key ${k.id} (shown once, store it now):\n${k.key}`);
      break;
    }
    case "list": {
      const keys = await listKeys(db);
      if (values.json) console.log(JSON.stringify(keys));
      else
        console.table(
          keys.map((k) => ({
            ...k,
            createdAt: k.createdAt.toISOString(),
            lastUsedAt: k.lastUsedAt?.toISOString() ?? "",
            revokedAt: k.revokedAt?.toISOString() ?? "",
            disabledAt: k.disabledAt?.toISOString() ?? "",
          })),
        );
      break;
    }
    case "revoke": {
      if (!rest[0]) fail("revoke needs a key id.");
      if (!(await revokeKey(db, rest[0]))) fail(`No live key ${rest[0]}.`);
      console.log(`Revoked ${rest[0]}.`);
      break;
    }
    case "set-plan": {
      const accountId = await accountOf(rest[0]);
      const change = await changePlan(db, accountId, plan(rest[1]), new Date());
      if (!change) fail(`No account ${accountId}.`);
      const count = (n: number, what: string) => `${n} ${what}${n > 1 ? "s" : ""}`;
      const notes = [
        change.pausedAlerts && `${count(change.pausedAlerts, "alert")} beyond its limits paused`,
        change.disabledKeys && `${count(change.disabledKeys, "key")} beyond its cap disabled`,
        change.enabledKeys && `${count(change.enabledKeys, "disabled key")} enabled again`,
      ].filter(Boolean);
      console.log(`Account ${accountId} is now on ${change.to}${notes.length ? ` (${notes.join(", ")})` : ""}.`);
      if (billingSettings())
        console.log("Stripe is configured: the account's next subscription event sets the plan from Stripe again.");
      break;
    }
    case "set-limits": {
      if (!rest[0]) fail("set-limits needs a key id.");
      const accountId = await accountOf(rest[0]);
      const set = await setKeyLimits(db, accountId, rest[0], {
        ratePerMinute: limit("per-minute", values["per-minute"], true),
        ratePerDay: limit("per-day", values["per-day"], true),
      });
      console.log(
        `Key ${rest[0]}: ${set.ratePerMinute ?? "plan default"} per minute, ` +
          `${set.ratePerDay ?? "plan default"} per day.`,
      );
      break;
    }
    case "set-contract": {
      const accountId = await accountOf(rest[0]);
      const perMinute = limit("per-minute", values["per-minute"], false);
      const perDay = limit("per-day", values["per-day"], false);
      if (!perMinute || !perDay) fail("set-contract needs --per-minute and --per-day.");
      await setContract(db, accountId, { ratePerMinute: perMinute, ratePerDay: perDay });
      console.log(`Account ${accountId}: keys may be set up to ${perMinute} per minute and ${perDay} per day.`);
      break;
    }
    default:
      fail(`Unknown command: ${command}.`);
  }
} catch (err) {
  // Refusals of the rules (a limit above the contract, a key not on API Tier) are the user's to fix.
  if (err instanceof ApiError || err instanceof DomainError) fail(err.message);
  throw err;
} finally {
  await getSql().end();
}
