#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { OnchainIntel } from "onchain-intel";
import { createServer } from "./server.ts";

/**
 * The MCP server over stdio, for local agents: `ONCHAIN_INTEL_API_KEY=... npx onchain-intel-mcp`.
 * ONCHAIN_INTEL_BASE_URL (default http://localhost:3000/v1) names the API; the dashboard links
 * go to its origin unless ONCHAIN_INTEL_DASHBOARD_URL says otherwise. Logs go to stderr: stdout
 * carries the protocol.
 */
const apiKey = process.env.ONCHAIN_INTEL_API_KEY;
if (!apiKey) {
  console.error("onchain-intel-mcp: set ONCHAIN_INTEL_API_KEY to an API key (ocd_live_...).");
  process.exit(1);
}
const baseUrl = process.env.ONCHAIN_INTEL_BASE_URL ?? "http://localhost:3000/v1";
const dashboardUrl = process.env.ONCHAIN_INTEL_DASHBOARD_URL ?? new URL(baseUrl).origin;
// A tool call waits out a short Retry-After; a longer one comes back as a tool error saying when to retry.
const client = new OnchainIntel({ apiKey, baseUrl, maxRetryWait: 10_000 });
await createServer({ client, dashboardUrl }).connect(new StdioServerTransport());
