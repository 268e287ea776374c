import { parseArgs } from "node:util";
import { getDb, getSql } from "@/db/client";
import { accountOfKey, createKey, ensureAccount, listKeys, PLANS, revokeKey, setPlan, type Plan } from "@/lib/keys/store";

const USAGE = `Usage:
  npm run --silent keys -- create --plan free|pro|api_tier [--email E] [--name N] [--json]
  npm run --silent keys -- list [--json]
  npm run --silent keys -- revoke KEY_ID
  npm run --silent keys -- set-plan KEY_ID free|pro|api_tier   (changes the plan of the key's account)
Works against DATABASE_URL, or the embedded database while \`npm start\` runs.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function plan(value: string | undefined): Plan {
  if (!value || !(PLANS as readonly string[]).includes(value)) fail(`A plan is required: ${PLANS.join(", ")}.`);
  return value as Plan;
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plan: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
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
      await setPlan(db, accountId, p);
      const k = await createKey(db, accountId, values.name);
      if (values.json) console.log(JSON.stringify({ key: k.key, id: k.id, plan: p }));
      else console.log(`Created ${p} key ${k.id} (shown once, store it now):\n${k.key}`);
      break;
    }
    case "list": {
      const keys = await listKeys(db);
      if (values.json) console.log(JSON.stringify(keys));
      else console.table(keys.map((k) => ({ ...k, createdAt: k.createdAt.toISOString(), lastUsedAt: k.lastUsedAt?.toISOString() ?? "", revokedAt: k.revokedAt?.toISOString() ?? "" })));
      break;
    }
    case "revoke": {
      if (!rest[0]) fail("revoke needs a key id.");
      if (!(await revokeKey(db, rest[0]))) fail(`No live key ${rest[0]}.`);
      console.log(`Revoked ${rest[0]}.`);
      break;
    }
    case "set-plan": {
      const accountId = rest[0] ? await accountOfKey(db, rest[0]) : null;
      if (!accountId) fail(`No key ${rest[0] ?? ""}.`);
      await setPlan(db, accountId, plan(rest[1]));
      console.log(`Account ${accountId} is now on ${rest[1]}.`);
      break;
    }
    default:
      fail(`Unknown command: ${command}.`);
  }
} finally {
  await getSql().end();
}
