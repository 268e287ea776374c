import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { createKey, ensureAccount } from "@/lib/keys/store";
import { loadDataset } from "@/scripts/dataset";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/scripts/embedded/database";
import { freePort, startAppServer, type AppServer } from "../setup/server";

let dir: string;
let embedded: EmbeddedDatabase;
let app: AppServer;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oci-pglite-"));
  embedded = await startEmbeddedDatabase(dir, await freePort());
  await runMigrations(embedded.url);
  const sql = connect(embedded.url, { max: 2 });
  await loadDataset(sql, { size: "tiny", seed: 3 });
  const db = createDb(sql);
  key = (await createKey(db, await ensureAccount(db, null, "free"))).key;
  await sql.end();
  app = await startAppServer({ DATABASE_URL: embedded.url });
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await embedded?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (p: string, init?: RequestInit) => {
  const res = await fetch(`${app.baseUrl}${p}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" } });
  return { status: res.status, body: await res.json() };
};

describe("embedded PGlite", () => {
  it("serves the API end to end", async () => {
    const tokens = await get("/v1/tokens?sort=newest&limit=5");
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.length).toBeGreaterThan(0);
    expect((await get(`/v1/tokens/${tokens.body.data[0].address}`)).status).toBe(200);
    expect((await get("/v1/events?type=swap&limit=5")).body.total).toBeGreaterThan(0);
    const alert = await get("/v1/alerts", { method: "POST", body: JSON.stringify({ name: "smoke", conditions: { max_risk_score: 50 } }) });
    expect(alert.status).toBe(201);
  });
});
