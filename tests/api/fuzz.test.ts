import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/v1/document";
import { mulberry32 } from "@/lib/random";
import { type ApiResponse, api, newKey, testDb } from "./helpers";

const rnd = mulberry32(20261121);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
const int = (n: number) => Math.floor(rnd() * n);

const NAMES = [
  "page",
  "limit",
  "sort",
  "type",
  "since",
  "after",
  "order",
  "status",
  "token_address",
  "wallet_address",
  "min_liquidity_usd",
  "max_market_cap_usd",
  "min_market_cap_usd",
  "max_risk_score",
  "exclude_flags",
  "min_holder_growth_1h_pct",
  "max_age_hours",
  "q",
  "interval",
  "from",
  "to",
  "x",
  "",
  "__proto__",
  "constructor",
];
const VALUES = [
  "",
  "0",
  "-1",
  "1",
  "50",
  "201",
  "1e309",
  "NaN",
  "Infinity",
  "9".repeat(400),
  `0x${"a".repeat(40)}`,
  `0x${"A".repeat(40)}`,
  "0xg",
  "%00",
  "%ff%fe",
  "😀",
  "null",
  "true",
  "[]",
  "{}",
  "2026-01-01T00:00:00Z",
  "2026-02-30",
  "swap",
  "trending",
  "risk_asc",
  "wash_trading,liquidity_pulled",
  ",,,",
  "' or 1=1 --",
  "<script>",
  "a".repeat(5000),
  "1.5",
  " 1",
  "1m",
  "4h",
  "0x",
  "%25",
];
type Operations = Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>;
const isStream = (item: Operations) =>
  Object.values(item).some((op) => op.responses?.["200"]?.content?.["text/event-stream"]);
/** Every documented path but a stream's (its 200 never ends), and paths no route serves. */
const PATHS = [
  ...Object.entries(openApiDocument("http://x/v1").paths as Record<string, Operations>)
    .filter(([, item]) => !isStream(item))
    .map(([p]) => `/v1${p}`),
  "/v1/{junk}",
  "/v1/tokens/{a}/{junk}",
];
const SEGMENTS = [
  `0x${"1".repeat(40)}`,
  `0x${"F".repeat(40)}`,
  "0x1",
  "..",
  "%2e%2e",
  "%00",
  "😀",
  "a".repeat(3000),
  `alrt_${"A".repeat(20)}`,
  "alrt_x",
  "null",
  "%",
  "%zz",
];

const encode = (s: string) => (rnd() < 0.5 ? encodeURIComponent(s) : s.replace(/[ #?&]/g, encodeURIComponent));

function randomQuery(): string {
  const parts: string[] = [];
  for (let i = int(5); i > 0; i--) parts.push(`${encode(pick(NAMES))}=${encode(pick(VALUES))}`);
  if (rnd() < 0.1) parts.push("&&=&");
  return parts.length ? `?${parts.join("&")}` : "";
}
function randomPath(): string {
  return pick(PATHS).replace(/\{\w+\}/g, () => encode(pick(SEGMENTS))) + randomQuery();
}
function randomJson(depth = 0): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.3) return pick<unknown>([null, true, 0, -1, 1e308, "x", "", pick(VALUES), 3.7, []]);
  if (r < 0.5) return Array.from({ length: int(4) }, () => randomJson(depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = int(5); i > 0; i--) {
    o[pick(["name", "conditions", "notification_channel", "webhook_url", "status", ...NAMES])] = randomJson(depth + 1);
  }
  if (rnd() < 0.5) o.conditions = { [pick(NAMES)]: randomJson(depth + 1) };
  return o;
}
function randomBody(): string {
  const r = rnd();
  if (r < 0.15) return pick(["", "{", "nul", "[1,", "\u0000", "a".repeat(70_000), '{"name":']);
  return JSON.stringify(randomJson());
}

let key: string;
beforeAll(async () => {
  const k = await newKey("api_tier");
  // Lift the per-minute limit so the fuzz reaches the handlers rather than the limiter.
  await testDb().execute(sql`update api_keys set rate_per_minute = 1000000 where id = ${k.id}`);
  key = k.key;
});

function checkResponse(label: string, res: ApiResponse) {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.status >= 400) {
    const e = res.body?.error;
    if (!e || typeof e.code !== "string" || typeof e.message !== "string" || typeof e.request_id !== "string") {
      problems.push("no error body");
    }
  }
  if (problems.length) throw new Error(`${label}: ${problems.join(", ")}: ${JSON.stringify(res.body)?.slice(0, 300)}`);
}

describe("fuzz", () => {
  it("never answers 500 and always sends the error body, over thousands of random requests", async () => {
    const requests: { label: string; run: () => Promise<ApiResponse> }[] = [];
    for (let i = 0; i < 2500; i++) {
      const path = randomPath();
      requests.push({ label: `GET ${path.slice(0, 200)}`, run: () => api(path, { key }) });
    }
    for (let i = 0; i < 800; i++) {
      const method = pick(["POST", "PATCH", "DELETE", "PUT"]);
      const path = pick(["/v1/alerts", `/v1/alerts/alrt_${"A".repeat(20)}`, "/v1/tokens", randomPath()]);
      const body = randomBody();
      requests.push({
        label: `${method} ${path.slice(0, 100)} ${body.slice(0, 100)}`,
        run: () => api(path, { key, method, rawBody: body, headers: { "Content-Type": "application/json" } }),
      });
    }
    const concurrency = 8;
    let next = 0;
    let count = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests.length) {
          const r = requests[next++];
          checkResponse(r.label, await r.run());
          count++;
        }
      }),
    );
    expect(count).toBe(requests.length);
  }, 300_000);
});
