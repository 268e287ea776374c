import { CopyButton } from "../copy-button";
import { Badge, type Tone } from "../ui/badge";
import { panelClass } from "../ui/surfaces";
import { TableHead } from "../ui/table";
import { CodeSpans } from "./code-spans";
import { curlLine, type LiveAddresses, recordedExample } from "./examples";
import type { Operation, Schema } from "./openapi-types";
import { SchemaType, schemaRules } from "./schema-type";
import { sdkLine } from "./sdk-examples";

/** A 2xx answer's status code reads green. */
const SUCCESS_TEXT = "text-emerald-700 dark:text-emerald-400";

const METHOD_TONE: Record<string, Tone> = { get: "info", post: "good", patch: "warn", delete: "danger" };

export const operationAnchor = (method: string, path: string) => `op-${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`;

const jsonSchema = (content?: Record<string, { schema?: Schema }>) => content?.["application/json"]?.schema;

/** A line to copy: the code and its copy button. */
function CopyLine({ code, label }: { code: string; label: string }) {
  return (
    <div className="mt-2 flex items-start gap-1 rounded bg-zinc-100 p-2 dark:bg-zinc-950">
      <code className="min-w-0 flex-1 overflow-x-auto whitespace-pre font-mono text-xs">{code}</code>
      <CopyButton value={code} label={label} />
    </div>
  );
}

/**
 * One endpoint: what it does, its parameters, its body, its answers, a recorded answer, a curl line that runs and
 * its SDK call.
 */
export function OperationSection({
  method,
  path,
  op,
  serverUrl,
  schemas,
  live,
}: {
  method: string;
  path: string;
  op: Operation;
  serverUrl: string;
  schemas: Record<string, Schema>;
  live: LiveAddresses;
}) {
  const curl = curlLine(method, path, serverUrl, op, schemas, live);
  const sdk = sdkLine(method, path, live);
  // What the numbers mean; the example request that follows is shown with the example itself.
  const meaning = op.description?.split("Example request: ")[0].trim();
  const body = jsonSchema(op.requestBody?.content);
  const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"));
  const example = success && recordedExample(success[1].content?.["application/json"], schemas);
  return (
    <section id={operationAnchor(method, path)} className={`scroll-mt-4 ${panelClass} p-4`}>
      <h3 className="flex flex-wrap items-center gap-2">
        <Badge tone={METHOD_TONE[method]}>{method.toUpperCase()}</Badge>
        <code className="font-mono text-sm font-semibold">{path}</code>
        <span className="text-sm text-zinc-600 dark:text-zinc-400">{op.summary}</span>
        {op.security?.length === 0 && <Badge>no key</Badge>}
      </h3>
      {meaning && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{meaning}</p>}

      {op.parameters && op.parameters.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[560px] text-sm">
            <caption className="mb-1 text-left text-xs font-medium text-zinc-500">Parameters</caption>
            <TableHead cells={[{ label: "Name", className: "w-48" }, { label: "In", className: "w-20" }, "Meaning"]} />
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-t border-zinc-100 align-top dark:border-zinc-800">
                  <td className="px-3 py-1.5 font-mono">
                    {p.name}
                    {p.required && (
                      <span className="ml-1 font-sans text-xs text-red-600 dark:text-red-400">required</span>
                    )}
                  </td>
                  <td className="px-3 py-1.5 text-zinc-500">{p.in}</td>
                  <td className="px-3 py-1.5 text-zinc-700 dark:text-zinc-300">
                    <CodeSpans text={p.description ?? p.schema?.description ?? ""} />
                    {p.schema && schemaRules(p.schema).length > 0 && (
                      <span className="block text-xs text-zinc-500">{schemaRules(p.schema).join("; ")}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {body && (
        <p className="mt-3 text-sm">
          <span className="text-zinc-500">Body (JSON): </span>
          <SchemaType schema={body} />
        </p>
      )}

      <ul className="mt-3 space-y-0.5 text-sm">
        {Object.entries(op.responses).map(([status, r]) => {
          const schema = jsonSchema(r.content);
          return (
            <li key={status} className="flex flex-wrap gap-x-2">
              <span className={`font-mono font-medium ${status.startsWith("2") ? SUCCESS_TEXT : "text-zinc-500"}`}>
                {status}
              </span>
              <span className="text-zinc-700 dark:text-zinc-300">{r.description}</span>
              {schema && status.startsWith("2") && <SchemaType schema={schema} />}
            </li>
          );
        })}
      </ul>

      {example !== undefined && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
            Example response ({success![0]}, recorded from the API)
          </summary>
          <pre className="mt-1 max-h-96 overflow-auto rounded bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950">
            {JSON.stringify(example, null, 2)}
          </pre>
        </details>
      )}

      <div className="mt-1">
        <CopyLine code={curl} label={`Copy the curl command for ${method.toUpperCase()} ${path}`} />
        {sdk && <CopyLine code={sdk} label={`Copy the SDK call for ${method.toUpperCase()} ${path}`} />}
      </div>
    </section>
  );
}
