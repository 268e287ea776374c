import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type OnchainIntel } from "onchain-intel";
import * as compact from "./compact.ts";
export type ToolContext = {
    client: OnchainIntel;
    links: compact.Links;
};
/** The tools: one per question an agent asks, each one API request unless its description says otherwise. */
export declare function registerTools(server: McpServer, { client, links }: ToolContext): void;
