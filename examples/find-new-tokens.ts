/**
 * Tokens launched in the last hour with more than $10k of liquidity and no risk flag, newest
 * first, through the SDK (packages/sdk).
 *
 *   ONCHAIN_INTEL_API_KEY=ocd_live_... npx tsx examples/find-new-tokens.ts [http://localhost:3000/v1]
 */
import { OnchainIntel, RISK_FLAGS } from "onchain-intel";

const apiKey = process.env.ONCHAIN_INTEL_API_KEY;
if (!apiKey) {
  console.error("Set ONCHAIN_INTEL_API_KEY to an API key (npm start prints one per plan).");
  process.exit(1);
}
const intel = new OnchainIntel({ apiKey, baseUrl: process.argv[2] ?? "http://localhost:3000/v1" });

const usd = (n: number) => `$${Math.round(n).toLocaleString("en-US")}`;
// Excluding every flag the API knows leaves the tokens that raise none.
const fresh = intel.tokens.list({
  max_age_hours: 1,
  min_liquidity_usd: 10_000,
  exclude_flags: RISK_FLAGS,
  sort: "newest",
  limit: 200,
});

let found = 0;
for await (const t of fresh) {
  found++;
  const age = `${Math.round(t.age_hours * 60)} min`;
  console.log(
    `${t.symbol.padEnd(10)} ${t.address}  ${age.padStart(7)}  liquidity ${usd(t.liquidity_usd)}  risk ${t.risk_score}`,
  );
}
console.log(`${found} token(s) launched in the last hour with over $10,000 of liquidity and no risk flag.`);
