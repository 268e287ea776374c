import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
/** Prompts that call the tools in the order a careful analyst would. */
export declare function registerPrompts(server: McpServer): void;
