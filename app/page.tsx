import { getDb } from "@/db/client";
import { getStatus } from "@/lib/queries/status";

export const dynamic = "force-dynamic";

export default async function Home() {
  const status = await getStatus(getDb(), new Date());
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">Onchain Intel</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        Token and wallet intelligence. The JSON API lives under <code>/v1</code>; its contract is{" "}
        <a className="underline" href="/v1/openapi.json">/v1/openapi.json</a>.
      </p>
      <dl className="mt-6 grid grid-cols-2 gap-2 text-sm">
        <dt>Indexed block</dt>
        <dd>{status.indexed_block ?? "—"}</dd>
        <dt>Worker</dt>
        <dd>{status.worker.alive ? "alive" : "not running"}</dd>
      </dl>
    </main>
  );
}
