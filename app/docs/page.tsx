import type { Metadata } from "next";
import { headers } from "next/headers";
import { openApiDocument } from "@/app/v1/document";
import { CodeSpans } from "@/components/docs/code-spans";
import { type Document, type Operation, schemaAnchor } from "@/components/docs/openapi-types";
import { OperationSection, operationAnchor } from "@/components/docs/operation";
import { SchemaFields } from "@/components/docs/schema-fields";
import { sdkSetup } from "@/components/docs/sdk-examples";
import { PageHeader } from "@/components/ui/page-header";
import { panelClass } from "@/components/ui/surfaces";
import { marketEvents } from "@/lib/api/market-reads";

export const metadata: Metadata = { title: "API reference" };

const METHODS = ["get", "post", "patch", "put", "delete"];

/** The API reference, rendered on the server from the OpenAPI document the API serves. Public. */
export default async function DocsPage() {
  const h = await headers();
  const origin = `${h.get("x-forwarded-proto") ?? "http"}://${h.get("host")}`;
  const doc = openApiDocument(`${origin}/v1`) as unknown as Document;
  const serverUrl = doc.servers?.[0]?.url ?? "/v1";
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, op: item[method] as Operation }] : [])),
  );
  const schemas = Object.entries(doc.components?.schemas ?? {});
  // Addresses (and a symbol to search for) for the curl lines, from the live market (a cached read, like every
  // public page).
  const [swap] = (await marketEvents(new URLSearchParams({ type: "swap", limit: "1" }))).data;
  const live = {
    token: swap?.token_address ?? null,
    wallet: swap?.wallet_address ?? null,
    queries: swap?.token_symbol ? { q: swap.token_symbol } : undefined,
  };

  return (
    <>
      <PageHeader
        title="API reference"
        subtitle={
          <>
            {doc.info.title} {doc.info.version}. Base URL <code className="font-mono">{serverUrl}</code>.
            Machine-readable:{" "}
            <a href="/v1/openapi.json" className="text-indigo-700 underline dark:text-indigo-300">
              /v1/openapi.json
            </a>{" "}
            (OpenAPI 3.1).
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Endpoints" className="text-sm lg:sticky lg:top-4 lg:self-start">
          <ul className="space-y-1">
            {operations.map(({ path, method }) => (
              <li key={`${method} ${path}`}>
                <a href={`#${operationAnchor(method, path)}`} className="flex gap-2 hover:underline">
                  <span className="w-12 font-mono text-xs uppercase text-zinc-500">{method}</span>
                  <span className="min-w-0 truncate font-mono text-xs">{path}</span>
                </a>
              </li>
            ))}
            <li className="pt-2">
              <a href="#schemas" className="text-xs hover:underline">
                Schemas
              </a>
            </li>
          </ul>
        </nav>
        <div className="min-w-0 space-y-4">
          <section className={`${panelClass} p-4 text-sm leading-relaxed break-words [&_code]:break-all`}>
            <h2 className="mb-1 font-semibold">Conventions</h2>
            <p>
              <CodeSpans text={doc.info.description ?? ""} />
            </p>
            <p className="mt-2">
              Errors answer <code className="font-mono">{`{"error":{"code","message","param","request_id"}}`}</code>.
              Lists answer <code className="font-mono">{`{"data","total","page","limit"}`}</code>;{" "}
              <code className="font-mono">limit</code> is 1 to 200 (default 50). Unknown or repeated query parameters
              are rejected with 400, naming the parameter.
            </p>
            <p className="mt-2">
              The curl lines below run as copied once <code className="font-mono">KEY</code> holds one of your keys (
              <a href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
                API keys
              </a>
              ): <code className="font-mono">export KEY=ocd_live_…</code>; for the alert routes, also{" "}
              <code className="font-mono">export ALERT_ID=alrt_…</code> from a created alert. Addresses are live ones
              from this market.
            </p>
            <p className="mt-2">
              Below each curl line is its call in the TypeScript SDK (
              <code className="font-mono">npm install onchain-intel</code>; Node 20+, Deno, Bun, browsers), set up once
              as:
            </p>
            <pre className="mt-1 overflow-x-auto rounded bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950">
              {sdkSetup(serverUrl)}
            </pre>
            <p className="mt-2">
              For agents: the MCP server at <code className="font-mono">/mcp</code> (Streamable HTTP, your key as a
              Bearer token) or <code className="font-mono">npx onchain-intel-mcp</code> over stdio; the whole API as
              text for language models at{" "}
              <a href="/llms.txt" className="text-indigo-700 underline dark:text-indigo-300">
                /llms.txt
              </a>{" "}
              and{" "}
              <a href="/llms-full.txt" className="text-indigo-700 underline dark:text-indigo-300">
                /llms-full.txt
              </a>
              .
            </p>
          </section>
          {operations.map(({ path, method, op }) => (
            <OperationSection
              key={`${method} ${path}`}
              method={method}
              path={path}
              op={op}
              serverUrl={serverUrl}
              schemas={doc.components?.schemas ?? {}}
              live={live}
            />
          ))}
          <h2 id="schemas" className="scroll-mt-4 pt-4 text-lg font-semibold">
            Schemas
          </h2>
          {schemas.map(([name, schema]) => (
            <section key={name} id={schemaAnchor(name)} className={`scroll-mt-4 ${panelClass} p-4`}>
              <h3 className="mb-2 font-mono text-sm font-semibold">{name}</h3>
              <SchemaFields schema={schema} />
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
