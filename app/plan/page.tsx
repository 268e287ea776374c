import { requestTime } from "@/lib/queries/clock";
import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { UsageChart } from "@/components/charts/usage-chart";
import { PlanLimitList } from "@/components/plan/plan-limits";
import { PlanSwitcher } from "@/components/plan/plan-switcher";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccount } from "@/lib/auth/account";
import { listPlans } from "@/lib/queries/plans";
import { dailyUsageByKey } from "@/lib/queries/usage";

export const metadata: Metadata = { title: "Plan and usage" };

const USAGE_DAYS = 14;

export default async function PlanPage() {
  const account = await requireAccount("/plan");
  const db = getDb();
  const [plans, usage] = await Promise.all([listPlans(db), dailyUsageByKey(db, account.id, USAGE_DAYS, requestTime())]);
  return (
    <>
      <PageHeader
        title="Plan and usage"
        subtitle={
          <>
            You are on the <strong data-testid="current-plan">{account.planLabel}</strong> plan. Switching takes effect at once for every key; there is no
            payment at this stage.
          </>
        }
      />
      <section aria-labelledby="plans-heading" className="mb-6">
        <h2 id="plans-heading" className="sr-only">
          Plans
        </h2>
        <PlanSwitcher current={account.plan} plans={plans.map((p) => ({ id: p.id, label: p.label, limits: <PlanLimitList plan={p} /> }))} />
        <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
          Minute limits slide over any 60 seconds; daily limits reset at 00:00 UTC. API Tier keys can carry limits of their own.
        </p>
      </section>
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading" className="mb-3 text-lg font-semibold">
          Requests per day, last {USAGE_DAYS} days
        </h2>
        {usage.length === 0 ? (
          <EmptyState title="No keys yet.">
            <Link href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
              Create an API key
            </Link>{" "}
            to start using the API.
          </EmptyState>
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            {usage.map((u) => (
              <Card
                key={u.keyId}
                title={
                  <>
                    {u.name} <span className="font-mono font-normal text-zinc-500">{u.prefix}…</span>
                    {u.revoked && <span className="ml-2 text-xs font-normal text-zinc-500">revoked</span>}
                  </>
                }
              >
                <UsageChart usage={u} />
              </Card>
            ))}
          </div>
        )}
      </section>
    </>
  );
}
