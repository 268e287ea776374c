import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { OnchainIntel } from "onchain-intel";
import { Links } from "./compact.ts";
import { registerPrompts } from "./prompts.ts";
import { registerTools } from "./tools.ts";

export type ServerOptions = {
  /** The API client the tools read through (its key is the caller's). */
  client: OnchainIntel;
  /** The dashboard's origin, for the links in answers (e.g. https://intel.example). */
  dashboardUrl: string;
};

const INSTRUCTIONS =
  "Token and wallet intelligence for one EVM chain. USD figures are in US dollars; percentages are in percent " +
  "unless a field says " +
  "fraction; 1 h and 24 h windows end at the indexed block each answer gives as as_of_block. Risk scores run " +
  "0-100, higher is riskier; " +
  "reputation scores 0-100, higher is better. Each answer links to its dashboard page (url).";

/** The MCP server of the Onchain Intel API: tools and prompts over the given client. */
export function createServer({ client, dashboardUrl }: ServerOptions): McpServer {
  const server = new McpServer({ name: "onchain-intel", version: "0.1.0" }, { instructions: INSTRUCTIONS });
  registerTools(server, { client, links: new Links(dashboardUrl.replace(/\/+$/, "")) });
  registerPrompts(server);
  return server;
}
