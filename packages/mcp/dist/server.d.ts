import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { OnchainIntel } from "onchain-intel";
export type ServerOptions = {
    /** The API client the tools read through (its key is the caller's). */
    client: OnchainIntel;
    /** The dashboard's origin, for the links in answers (e.g. https://intel.example). */
    dashboardUrl: string;
};
/** The MCP server of the Onchain Intel API: tools and prompts over the given client. */
export declare function createServer({ client, dashboardUrl }: ServerOptions): McpServer;
