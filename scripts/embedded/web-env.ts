import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What the embedded start adds to the web app's environment: a persistent Auth.js secret (so
 * sessions survive restarts), the dev sign-in for a newcomer without an inbox (only on the
 * embedded defaults, `embeddedDefaults`), and the public address used in links.
 * Anything set in the environment wins.
 */
export function embeddedWebEnv(dataDir: string, port: number, embeddedDefaults: boolean): Record<string, string> {
  const file = path.join(dataDir, "auth-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  return {
    AUTH_SECRET: process.env.AUTH_SECRET ?? readFileSync(file, "utf8").trim(),
    AUTH_TRUST_HOST: process.env.AUTH_TRUST_HOST ?? "1",
    ...(embeddedDefaults ? { DEV_SIGNIN: process.env.DEV_SIGNIN ?? "1" } : {}),
    APP_URL: process.env.APP_URL ?? `http://localhost:${port}`,
  };
}
