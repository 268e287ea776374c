import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer } from "../setup/server";
import { TcpProxy } from "../setup/tcp-proxy";
import { expectError, newKey } from "./helpers";

let proxy: TcpProxy;
let app: AppServer;
let key: string;

const get = async (path: string) => {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

beforeAll(async () => {
  const db = new URL(inject("databaseUrl"));
  proxy = new TcpProxy(db.hostname, Number(db.port || 5432));
  await proxy.open();
  db.host = `127.0.0.1:${proxy.port}`;
  app = await startAppServer({ DATABASE_URL: db.toString() });
  key = (await newKey("api_tier")).key;
});

afterAll(async () => {
  await app?.stop();
  await proxy?.close();
});

describe("database outage", () => {
  // An answer at all shows nothing hangs (the test's own timeout would end a hung request).
  it("answers 500 SERVER_ERROR while the database is gone, then recovers by itself", async () => {
    expect((await get("/v1/tokens?limit=1")).status).toBe(200);

    await proxy.close();
    for (const path of ["/v1/tokens?limit=2", "/v1/events", "/v1/status"]) {
      const res = await get(path);
      expectError(res, 500, "SERVER_ERROR");
      expect(res.body.error.message).not.toMatch(/ECONN|postgres|127\.0\.0\.1/i);
    }

    await proxy.open();
    let recovered = false;
    for (let i = 0; i < 200 && !recovered; i++) {
      recovered = (await get("/v1/tokens?limit=3")).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(true);
  });

  it("logs no key secret", () => {
    expect(app.output()).not.toContain(key);
    expect(app.output()).not.toContain(key.slice(9));
  });
});
