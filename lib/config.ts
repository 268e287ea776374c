import { existsSync, readFileSync } from "node:fs";
import type { BlockList } from "node:net";
import path from "node:path";
import { z } from "zod";
import { parseAddressList } from "@/lib/auth/ip";

/** Where `npm start` keeps the embedded database and writes the URL other processes use. */
export const DATA_DIR = path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? ".data");
export const RUNTIME_FILE = path.join(DATA_DIR, "runtime.json");

const bool = z
  .enum(["1", "0", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");

const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Streaming replicas of DATABASE_URL, comma-separated, that serve the API's and pages' reads
   * (db/read-replicas.ts); writes, metering and keys stay on DATABASE_URL.
   */
  DATABASE_READ_URL: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().url())),
  /** A replica whose indexed block is further behind the primary's is skipped until it catches up. */
  READ_REPLICA_MAX_LAG_BLOCKS: z.coerce.number().int().min(0).default(10),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** The public origin of the dashboard: every link in email and the Origin writes must carry. */
  APP_URL: z.string().url().optional(),
  /** Auth.js's own name for the public origin; APP_URL wins when both are set. */
  AUTH_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Requests give up on the database after this long and answer 500. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(4000),
  RPC_URL: z.string().url().optional(),
  /**
   * The node's WebSocket endpoint: the worker reads a block when it is announced (eth_subscribe newHeads), not only
   * at its poll.
   */
  RPC_WS_URL: z.string().url().optional(),
  CHAIN_PROFILE: z.string().default("devchain"),
  POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /**
   * Raw history retention (worker/retention.ts): 0 keeps every row; N keeps every raw row of the last N blocks (the
   * finality depth at least) and, older, only the pool reserve rows a read needs.
   */
  RAW_HISTORY_RETENTION_BLOCKS: z.coerce.number().int().min(0).default(0),
  /** GET /v1/status reports unhealthy ("lagging") when the indexed block is further behind the chain head. */
  STATUS_MAX_LAG_SECONDS: z.coerce.number().min(0).default(60),
  /** ... and ("quarantine") when more entities than this are quarantined. */
  STATUS_MAX_QUARANTINED: z.coerce.number().int().min(0).default(10),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.string().url().optional(),
  EMAIL_FROM: z.string().default("Onchain Intel <alerts@localhost>"),
  AUTH_SECRET: z.string().optional(),
  DEV_SIGNIN: bool,
  WEBHOOK_ALLOW_PRIVATE: bool,
  /**
   * Proxies whose X-Forwarded-For tells who a visitor is (lib/auth/client-address.ts): addresses, CIDR ranges,
   * loopback, linklocal, uniquelocal.
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseAddressList(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  /** Caches switched off by name (lib/cache.ts), only to measure what each earns (bench:api, bench:pages). */
  CACHE_OFF: z
    .string()
    .default("")
    .transform((v) => new Set(v.split(",").map((name) => name.trim()))),
  LLM_URL: z.string().url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** An event stream with nothing to send writes a comment this often, so proxies keep it open. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  /** An event stream whose client lets more than this many bytes wait unread is ended. */
  STREAM_BUFFER_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** The dashboard's live feed (GET /api/live): connections per client address (a browser needs one), per process. */
  LIVE_MAX_PER_CLIENT: z.coerce.number().int().min(1).default(6),
  LIVE_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(5_000),
  /** A live connection with nothing to send gets a ping this often (pages refresh the status on it). */
  LIVE_PING_MS: z.coerce.number().int().min(100).default(10_000),
  /** Billing (lib/billing): unset, plans change only through the keys CLI. */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_PRO: z.string().optional(),
  STRIPE_PRICE_API_TIER: z.string().optional(),
  STRIPE_METER_EVENT_NAME: z.string().default("api_requests"),
  /** Another Stripe-compatible endpoint (tests use a loopback fake). */
  STRIPE_API_BASE: z.string().url().optional(),
});

export type Config = z.infer<typeof schema> & {
  databaseUrl: string | undefined;
  /** APP_URL's (else AUTH_URL's) origin; http://localhost:PORT when neither is set. */
  appOrigin: string;
  /**
   * Running on what `npm start` provides by itself: its embedded database (the one its runtime
   * file names), its dev chain (no RPC_URL) and no email service (no RESEND_API_KEY). Only then
   * may sign-in links be logged and the dev sign-in work: nothing real is at stake.
   */
  onEmbeddedDefaults: boolean;
  /**
   * `npm start` launches the embedded defaults: no DATABASE_URL (it starts its own database), no
   * RPC_URL (its dev chain), no RESEND_API_KEY. What onEmbeddedDefaults is for the processes it
   * starts; only then does it make dev keys or turn the dev sign-in on.
   */
  launchesEmbeddedDefaults: boolean;
  /** TRUSTED_PROXIES, parsed. */
  trustedProxies: BlockList;
};

/** The embedded launcher's database URL, for CLIs run beside `npm start`. */
function embeddedDatabaseUrl(): string | undefined {
  if (!existsSync(RUNTIME_FILE)) return undefined;
  try {
    return (JSON.parse(readFileSync(RUNTIME_FILE, "utf8")) as { databaseUrl?: string }).databaseUrl;
  } catch {
    return undefined;
  }
}

function load(): Config {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${issues}`);
  }
  const env = parsed.data;
  const publicUrl = env.APP_URL ?? env.AUTH_URL;
  // Without a configured origin, links would be built from the request's Host (or
  // X-Forwarded-Host): a forged header would send someone's sign-in link to another site.
  if (env.RESEND_API_KEY && !publicUrl) {
    throw new Error(
      "Invalid environment: RESEND_API_KEY is set but APP_URL is not. " +
        "Set APP_URL (or AUTH_URL) to the public address of the dashboard, e.g. APP_URL=https://intel.example.com.",
    );
  }
  const embedded = embeddedDatabaseUrl();
  return {
    ...env,
    databaseUrl: env.DATABASE_URL ?? embedded,
    appOrigin: new URL(publicUrl ?? `http://localhost:${env.PORT}`).origin,
    trustedProxies: parseAddressList(env.TRUSTED_PROXIES),
    onEmbeddedDefaults:
      !env.RESEND_API_KEY && !env.RPC_URL && embedded !== undefined && (env.DATABASE_URL ?? embedded) === embedded,
    launchesEmbeddedDefaults: !env.RESEND_API_KEY && !env.RPC_URL && !env.DATABASE_URL,
  };
}

export const config: Config = load();

export function requireDatabaseUrl(): string {
  if (!config.databaseUrl) {
    throw new Error("No database: set DATABASE_URL, or run `npm start` to start the embedded one.");
  }
  return config.databaseUrl;
}
